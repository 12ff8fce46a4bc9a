-- Smart trading plans (modules/smart): products staff create (none seeded: DESIGN rule 9), plans
-- that hold their amount in the customer's `smart` account and trade real positions on it, the
-- income each day realised, and the year's backtest of each product, computed once a day.

-- Positions a plan opened carry its id: their margin comes from and returns to the plan's account,
-- and the plan's engine (not the trigger engine) closes them. Two close reasons are the plans'.
ALTER TABLE positions ADD COLUMN plan_id bigint;
CREATE INDEX positions_plan ON positions (plan_id, id) WHERE plan_id IS NOT NULL;
ALTER TABLE positions DROP CONSTRAINT positions_close_reason_check;
ALTER TABLE positions ADD CONSTRAINT positions_close_reason_check
  CHECK (close_reason IN ('manual', 'take_profit', 'stop_loss', 'stop_out', 'expiry', 'signal', 'drawdown'));

CREATE TABLE smart_products (
  id              bigserial PRIMARY KEY,
  name            text          NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
  strategy        text          NOT NULL CHECK (strategy IN ('ma_trend', 'mean_reversion', 'breakout')),
  instrument      text          NOT NULL,
  asset           text          NOT NULL REFERENCES ledger_assets (code),
  timeframes      integer[]     NOT NULL CHECK (cardinality(timeframes) BETWEEN 1 AND 12),
  min_minor       numeric(78,0) NOT NULL CHECK (min_minor > 0),
  max_minor       numeric(78,0) NOT NULL,
  capacity_minor  numeric(78,0) NOT NULL CHECK (capacity_minor > 0),
  -- what plans in progress hold: a purchase raises it only while it stays within the capacity
  taken_minor     numeric(78,0) NOT NULL DEFAULT 0 CHECK (taken_minor >= 0),
  -- the platform's share of a plan's positive realised result, in millionths
  fee_share_ppm   bigint        NOT NULL CHECK (fee_share_ppm BETWEEN 0 AND 1000000),
  enabled         boolean       NOT NULL,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  CHECK (max_minor >= min_minor),
  CHECK (taken_minor <= capacity_minor)
);

CREATE TABLE smart_plans (
  id               bigserial PRIMARY KEY,
  product_id       bigint        NOT NULL REFERENCES smart_products (id),
  user_id          bigint        NOT NULL REFERENCES users (id),
  book             text          NOT NULL CHECK (book = 'live'),
  -- the terms when bought (a later change of the product does not touch them)
  strategy         text          NOT NULL,
  instrument       text          NOT NULL,
  asset            text          NOT NULL,
  amount_minor     numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  min_minor        numeric(78,0) NOT NULL,
  max_minor        numeric(78,0) NOT NULL,
  timeframe_days   integer       NOT NULL CHECK (timeframe_days > 0),
  fee_share_ppm    bigint        NOT NULL,
  language         text          NOT NULL,
  state            text          NOT NULL CHECK (state IN ('in_progress', 'profit_shared', 'expired', 'stopped')),
  end_reason       text          CHECK (end_reason IN ('expired', 'stopped', 'drawdown')),
  -- the first one-minute bar the plan trades on, and its end (epoch seconds)
  start_tick       bigint        NOT NULL,
  end_tick         bigint        NOT NULL,
  -- the last one-minute bar the live runner stepped the engine through
  last_tick        bigint        NOT NULL,
  -- who steps the plan now (a runner or a stop, on any node) and until when (epoch seconds)
  lease_owner      text,
  lease_until      bigint,
  request_key      text          NOT NULL UNIQUE,
  entry_id         bigint        NOT NULL,
  fee_minor        numeric(78,0),
  returned_minor   numeric(78,0),
  end_entry_id     bigint,
  ended_at         timestamptz,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  CHECK ((state = 'in_progress') = (end_entry_id IS NULL))
);
CREATE INDEX smart_plans_user ON smart_plans (user_id, id);
CREATE INDEX smart_plans_running ON smart_plans (id) WHERE state = 'in_progress';
CREATE INDEX smart_plans_product ON smart_plans (product_id, id);

-- Each day's realised result of a plan (closed trades' results less their fees), posted once.
CREATE TABLE smart_incomes (
  plan_id      bigint        NOT NULL REFERENCES smart_plans (id),
  day          date          NOT NULL,
  amount_minor numeric(78,0) NOT NULL,
  trades       integer       NOT NULL,
  posted_at    timestamptz   NOT NULL DEFAULT now(),
  PRIMARY KEY (plan_id, day)
);

-- The year's backtest of a product, computed once per product and UTC day.
CREATE TABLE smart_backtests (
  product_id  bigint       NOT NULL REFERENCES smart_products (id),
  day         date         NOT NULL,
  report      jsonb        NOT NULL,
  created_at  timestamptz  NOT NULL DEFAULT now(),
  PRIMARY KEY (product_id, day)
);
