-- Price alerts (issue 38): a customer's alert on an instrument's price. `above` fires when the bid
-- rises to the level, `below` when the ask falls to it (levels in ticks at the instrument's
-- decimals, as every price is stored); `move_pct` when the instrument's 24-hour change (the market's
-- own: the price now against the price 24 hours earlier) reaches ±pct_bp basis points. A firing is
-- claimed once across nodes by the conditional update active -> fired (or, for a repeating alert,
-- armed -> disarmed: it fires again only after the price has gone back across the level), each at
-- a tick later than the alert's last change.
CREATE TABLE price_alerts (
  id             bigserial     PRIMARY KEY,
  user_id        bigint        NOT NULL REFERENCES users (id),
  instrument_id  bigint        NOT NULL REFERENCES instruments (id),
  kind           text          NOT NULL CHECK (kind IN ('above', 'below', 'move_pct')),
  level_ticks    numeric(40,0) CHECK (level_ticks > 0),
  price_decimals smallint      NOT NULL CHECK (price_decimals BETWEEN 0 AND 12),
  pct_bp         integer       CHECK (pct_bp BETWEEN 1 AND 100000),
  repeat         boolean       NOT NULL DEFAULT false,
  state          text          NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'fired', 'cancelled')),
  -- A repeating alert: false from a firing until the price is back across the level (re-armed).
  armed          boolean       NOT NULL DEFAULT true,
  fire_count     integer       NOT NULL DEFAULT 0,
  -- The tick (second) of the last change of `armed` (or of creation): a change is claimed only by a
  -- later tick, so a node replaying ticks another node already evaluated changes nothing.
  changed_tick   bigint        NOT NULL,
  fired_at       timestamptz,
  fired_price    numeric(40,0),
  created_at     timestamptz   NOT NULL,
  CONSTRAINT price_alerts_level CHECK ((kind = 'move_pct') = (level_ticks IS NULL)),
  CONSTRAINT price_alerts_pct CHECK ((kind = 'move_pct') = (pct_bp IS NOT NULL))
);
CREATE INDEX price_alerts_user ON price_alerts (user_id, id DESC);
CREATE INDEX price_alerts_active ON price_alerts (id) WHERE state = 'active';

-- The customer's Web Push subscriptions (one per browser endpoint).
CREATE TABLE push_subscriptions (
  id          bigserial   PRIMARY KEY,
  user_id     bigint      NOT NULL REFERENCES users (id),
  endpoint    text        NOT NULL UNIQUE,
  p256dh      text        NOT NULL,
  auth        text        NOT NULL,
  created_at  timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
