-- Leveraged positions. A position row is written in the same transaction as the ledger entry that
-- opens it (margin and fee) and updated in the same transaction as the entry that closes it, so a
-- position and its money can never disagree. Prices are integer ticks at price_decimals; amounts
-- are USDT minor units.
CREATE TABLE positions (
  id                 bigserial     PRIMARY KEY,
  user_id            bigint        NOT NULL REFERENCES users (id),
  book               text          NOT NULL CHECK (book IN ('demo', 'live')),
  instrument_id      bigint        NOT NULL REFERENCES instruments (id),
  code               text          NOT NULL,
  direction          text          NOT NULL CHECK (direction IN ('long', 'short')),
  centilots          bigint        NOT NULL CHECK (centilots > 0),
  lot_size           numeric(40,0) NOT NULL CHECK (lot_size > 0),
  leverage           integer       NOT NULL CHECK (leverage BETWEEN 1 AND 1000),
  price_decimals     smallint      NOT NULL CHECK (price_decimals BETWEEN 0 AND 12),
  open_ticks         numeric(40,0) NOT NULL CHECK (open_ticks > 0),
  stop_loss_ticks    numeric(40,0) NOT NULL CHECK (stop_loss_ticks >= 0),
  take_profit_ticks  numeric(40,0) NOT NULL CHECK (take_profit_ticks >= 0),
  liquidation_ticks  numeric(40,0) NOT NULL CHECK (liquidation_ticks >= 0),
  -- USD per unit of the quote currency at the open tick, as a ratio (1/1 for USD and USDT).
  conversion_num     numeric(40,0) NOT NULL CHECK (conversion_num > 0),
  conversion_den     numeric(40,0) NOT NULL CHECK (conversion_den > 0),
  notional_minor     numeric(78,0) NOT NULL CHECK (notional_minor > 0),
  margin_minor       numeric(78,0) NOT NULL CHECK (margin_minor > 0),
  fee_minor          numeric(78,0) NOT NULL CHECK (fee_minor >= 0),
  fee_ppm            integer       NOT NULL CHECK (fee_ppm BETWEEN 0 AND 3000),
  -- The tick whose price the customer confirmed, and the second the fill was written: triggers
  -- watch the ticks after live_tick.
  open_tick          bigint        NOT NULL,
  live_tick          bigint        NOT NULL,
  -- The language the customer traded in: notices about the position are written in it.
  language           text          NOT NULL,
  expires_tick       bigint,
  request_id         text          NOT NULL,
  open_entry_id      bigint        NOT NULL UNIQUE REFERENCES ledger_entries (id),
  opened_at          timestamptz   NOT NULL DEFAULT now(),
  status             text          NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  close_reason       text          CHECK (close_reason IN ('manual', 'take_profit', 'stop_loss', 'stop_out', 'expiry')),
  close_ticks        numeric(40,0),
  close_tick         bigint,
  profit_minor       numeric(78,0),
  absorbed_minor     numeric(78,0) NOT NULL DEFAULT 0 CHECK (absorbed_minor >= 0),
  close_entry_id     bigint        UNIQUE REFERENCES ledger_entries (id),
  closed_at          timestamptz,
  UNIQUE (user_id, request_id),
  CHECK ((status = 'open') = (close_entry_id IS NULL)),
  CHECK (status = 'open' OR (close_reason IS NOT NULL AND close_ticks IS NOT NULL AND profit_minor IS NOT NULL))
);
CREATE INDEX positions_user_idx ON positions (user_id, book, status, id DESC);
CREATE INDEX positions_open_idx ON positions (id) WHERE status = 'open';

-- The last tick the trigger engine has processed, so a restart (or a new leader) catches up on
-- every second it missed rather than skipping a stop that was crossed meanwhile.
CREATE TABLE trading_clock (
  id        smallint PRIMARY KEY CHECK (id = 1),
  last_tick bigint   NOT NULL
);
