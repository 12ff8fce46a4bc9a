-- The instrument catalogue (seeded from modules/market/catalogue.data.ts) and watchlists.

CREATE TABLE instruments (
  id        serial   PRIMARY KEY,
  code      text     NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{2,16}$'),
  class     text     NOT NULL CHECK (class IN ('forex', 'crypto', 'stocks', 'etf', 'metals', 'futures')),
  name      text     NOT NULL,
  names     text     NOT NULL DEFAULT '{}',
  ref_price text     NOT NULL CHECK (ref_price ~ '^\d+(\.\d+)?$'),
  decimals  smallint NOT NULL CHECK (decimals BETWEEN 0 AND 10),
  listed    boolean  NOT NULL DEFAULT true
);

CREATE TABLE watchlist_items (
  user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  instrument_id integer     NOT NULL REFERENCES instruments (id),
  added_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, instrument_id)
);
