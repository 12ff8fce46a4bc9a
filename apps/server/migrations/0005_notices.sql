-- Notices to customers, written in the customer's language when created.
CREATE TABLE notices (
  id             bigserial   PRIMARY KEY,
  user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind           text        NOT NULL CHECK (kind ~ '^[a-z_.]{2,60}$'),
  notice_content text        NOT NULL CHECK (length(notice_content) BETWEEN 1 AND 4000),
  read_state     smallint    NOT NULL DEFAULT 0 CHECK (read_state IN (0, 1)),
  created_at     timestamptz NOT NULL DEFAULT now(),
  read_at        timestamptz
);
CREATE INDEX notices_user_idx ON notices (user_id, read_state, id DESC);
