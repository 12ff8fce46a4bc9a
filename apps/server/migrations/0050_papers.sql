-- Papers (modules/papers): the statements recorded (by the monthly job or a download), with the
-- figures the file states; and each customer's private calendar link, its token kept only as a
-- SHA-256 hash (revoked: the row is deleted; rotated: the hash replaced).

CREATE TABLE papers_statements (
  id           bigserial     PRIMARY KEY,
  user_id      bigint        NOT NULL REFERENCES users (id),
  book         text          NOT NULL CHECK (book IN ('demo', 'live')),
  asset        text          NOT NULL,
  period_from  date          NOT NULL,
  period_to    date          NOT NULL CHECK (period_to >= period_from),
  opening      numeric(78,0) NOT NULL,
  closing      numeric(78,0) NOT NULL,
  credits      numeric(78,0) NOT NULL,
  debits       numeric(78,0) NOT NULL,
  fees         numeric(78,0) NOT NULL,
  events       integer       NOT NULL CHECK (events >= 0),
  language     text          NOT NULL,
  generated_at timestamptz   NOT NULL,
  UNIQUE (user_id, book, asset, period_from, period_to)
);
CREATE INDEX papers_statements_user ON papers_statements (user_id, book, period_from DESC);

CREATE TABLE papers_calendar_links (
  user_id    bigint      PRIMARY KEY REFERENCES users (id),
  token_hash text        NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  language   text        NOT NULL,
  created_at timestamptz NOT NULL
);
