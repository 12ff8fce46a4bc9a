-- Pending entry orders (issue 38): limit and stop orders that open a position, through the same
-- opening as a market order, at the first tick whose price crosses their level. What placing
-- holds (margin and fee at the level) is a ledger hold (`hold_id`) until the order fills, is
-- cancelled, expires or is rejected; `released` once that hold is voided. A fill is claimed once,
-- across nodes, by the conditional update open -> filling (which records the crossing tick and
-- price), and ends filled (its position) or rejected (with its reason).
CREATE TABLE pending_orders (
  id                 bigserial     PRIMARY KEY,
  user_id            bigint        NOT NULL REFERENCES users (id),
  book               text          NOT NULL CHECK (book IN ('demo', 'live')),
  request_id         text          NOT NULL,
  instrument_id      bigint        NOT NULL REFERENCES instruments (id),
  code               text          NOT NULL,
  order_type         text          NOT NULL CHECK (order_type IN ('limit', 'stop')),
  direction          text          NOT NULL CHECK (direction IN ('long', 'short')),
  centilots          bigint        NOT NULL CHECK (centilots > 0),
  leverage           integer       NOT NULL CHECK (leverage BETWEEN 1 AND 1000),
  price_decimals     smallint      NOT NULL CHECK (price_decimals BETWEEN 0 AND 12),
  level_ticks        numeric(40,0) NOT NULL CHECK (level_ticks > 0),
  stop_loss_ticks    numeric(40,0) NOT NULL CHECK (stop_loss_ticks >= 0),
  take_profit_ticks  numeric(40,0) NOT NULL CHECK (take_profit_ticks >= 0),
  auto_close_after   integer,
  language           text          NOT NULL,
  held_minor         numeric(78,0) NOT NULL CHECK (held_minor > 0),
  hold_id            bigint        NOT NULL REFERENCES ledger_holds (id),
  -- Good till this instant (null: till cancelled); the tick it was placed at (it fills after it).
  expires_at         timestamptz,
  placed_tick        bigint        NOT NULL,
  state              text          NOT NULL DEFAULT 'open'
                     CHECK (state IN ('open', 'filling', 'filled', 'cancelled', 'expired', 'rejected')),
  reason             text          CHECK (reason IN ('insufficient_funds', 'unreasonable_stops', 'market_closed')),
  fill_tick          bigint,
  fill_ticks         numeric(40,0),
  position_id        bigint        REFERENCES positions (id),
  released           boolean       NOT NULL DEFAULT false,
  created_at         timestamptz   NOT NULL DEFAULT now(),
  ended_at           timestamptz,
  UNIQUE (user_id, book, request_id),
  CHECK (state NOT IN ('filling', 'filled') OR (fill_tick IS NOT NULL AND fill_ticks IS NOT NULL)),
  CHECK ((state = 'filled') = (position_id IS NOT NULL)),
  CHECK ((state = 'rejected') = (reason IS NOT NULL))
);
CREATE INDEX pending_orders_owner ON pending_orders (user_id, book, id DESC);
-- The engine's load and sync, and the expiry job: only the orders still open (or mid-fill).
CREATE INDEX pending_orders_live ON pending_orders (id) WHERE state IN ('open', 'filling');
CREATE INDEX pending_orders_unreleased ON pending_orders (id) WHERE NOT released AND state IN ('cancelled', 'expired', 'rejected', 'filled');
