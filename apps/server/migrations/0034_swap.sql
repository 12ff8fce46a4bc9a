-- Swap: one asset for another at a quote priced from the market (modules/swap).
--
-- `swap_pairs` holds what staff set per ordered pair: the limits of one swap in the `from` asset's
-- minor units, the fee as millionths of the gross received, and the switch. `swaps` is the record
-- of each swap done, written by the `swap` ledger entry's attachment in the entry's transaction,
-- so a swap and its postings can never disagree; one per (customer, book, request id).
CREATE TABLE swap_pairs (
  from_asset    text          NOT NULL REFERENCES ledger_assets (code),
  to_asset      text          NOT NULL REFERENCES ledger_assets (code),
  min_minor     numeric(78,0) NOT NULL CHECK (min_minor > 0),
  max_minor     numeric(78,0) NOT NULL,
  -- 1000 = 0.1 %; below 100 % so something is always received
  fee_rate_ppm  bigint        NOT NULL CHECK (fee_rate_ppm BETWEEN 0 AND 999999),
  enabled       boolean       NOT NULL,
  updated_at    timestamptz   NOT NULL DEFAULT now(),
  updated_by    bigint        REFERENCES staff (id),
  PRIMARY KEY (from_asset, to_asset),
  CHECK (from_asset <> to_asset),
  CHECK (max_minor >= min_minor)
);

-- Every ordered pair of USDT, USDC, BTC and ETH; limits in the `from` asset: USDT and USDC 10 to
-- 100,000, BTC 0.0001 to 2, ETH 0.003 to 50; fee 0.1 %.
INSERT INTO swap_pairs (from_asset, to_asset, min_minor, max_minor, fee_rate_ppm, enabled)
SELECT f.code, t.code, f.min_minor, f.max_minor, 1000, true
FROM (VALUES
  ('USDT', 10000000::numeric, 100000000000::numeric),
  ('USDC', 10000000::numeric, 100000000000::numeric),
  ('BTC', 10000::numeric, 200000000::numeric),
  ('ETH', 3000000000000000::numeric, 50000000000000000000::numeric)
) AS f (code, min_minor, max_minor)
CROSS JOIN (VALUES ('USDT'), ('USDC'), ('BTC'), ('ETH')) AS t (code)
WHERE f.code <> t.code;

CREATE TABLE swaps (
  id             bigserial     PRIMARY KEY,
  user_id        bigint        NOT NULL REFERENCES users (id),
  book           text          NOT NULL CHECK (book IN ('demo', 'live')),
  from_asset     text          NOT NULL REFERENCES ledger_assets (code),
  to_asset       text          NOT NULL REFERENCES ledger_assets (code),
  -- the quote's figures, exactly as posted (from: amount; to: gross, spread, fee, receive)
  amount_minor   numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  gross_minor    numeric(78,0) NOT NULL,
  spread_minor   numeric(78,0) NOT NULL CHECK (spread_minor >= 0),
  fee_minor      numeric(78,0) NOT NULL CHECK (fee_minor >= 0),
  receive_minor  numeric(78,0) NOT NULL CHECK (receive_minor > 0),
  rate           text          NOT NULL,
  price          text          NOT NULL,
  fee_rate_ppm   bigint        NOT NULL,
  quote_time     bigint        NOT NULL,
  request_id     text          NOT NULL,
  entry_id       bigint        NOT NULL UNIQUE REFERENCES ledger_entries (id),
  created_at     timestamptz   NOT NULL DEFAULT now(),
  CHECK (from_asset <> to_asset),
  CHECK (gross_minor = receive_minor + fee_minor),
  UNIQUE (user_id, book, request_id)
);

-- A customer's swaps in one book, newest first (history pages by id).
CREATE INDEX swaps_user_idx ON swaps (user_id, book, id DESC);
