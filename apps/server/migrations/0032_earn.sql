-- Earn: fund and VIP products with daily settlement (modules/earn).
--
-- Each product has two ledger accounts per book: its yield reserve (`earn_reserve_<id>`, funded by
-- staff) and the interest promised to current investors (`earn_owed_<id>`). Both are platform
-- accounts that may NOT go negative (allow_negative false): the database itself refuses a promise
-- or a payout the reserve does not hold. Account kinds may now carry a product's id.
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check CHECK (kind ~ '^[a-z][a-z0-9_]{1,40}$');

CREATE TABLE earn_products (
  id                bigserial PRIMARY KEY,
  type              text          NOT NULL CHECK (type IN ('fund', 'vip')),
  name              text          NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
  asset             text          NOT NULL REFERENCES ledger_assets (code),
  income            text          NOT NULL CHECK (income IN ('static', 'dynamic')),
  -- null: flexible (no lock, no penalty)
  term_days         integer       CHECK (term_days BETWEEN 1 AND 1825),
  -- static: the annual rate in millionths (120000 = 12 %); null for dynamic
  annual_rate_ppm   bigint        CHECK (annual_rate_ppm BETWEEN 0 AND 100000000),
  basket            text[]        NOT NULL DEFAULT '{}',
  min_minor         numeric(78,0) NOT NULL CHECK (min_minor > 0),
  max_minor         numeric(78,0) NOT NULL,
  capacity_minor    numeric(78,0) NOT NULL CHECK (capacity_minor > 0),
  penalty_ppm       bigint        NOT NULL CHECK (penalty_ppm BETWEEN 0 AND 999999),
  requires_kyc      boolean       NOT NULL,
  one_per_customer  boolean       NOT NULL,
  enabled           boolean       NOT NULL,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  CHECK (max_minor >= min_minor),
  CHECK ((income = 'static') = (annual_rate_ppm IS NOT NULL)),
  CHECK (income = 'static' OR cardinality(basket) > 0)
);

-- What each book of a product has taken (pending proofs and investments in progress): the
-- purchase's ledger transaction raises it only while it stays within the capacity.
CREATE TABLE earn_capacity (
  product_id  bigint        NOT NULL REFERENCES earn_products (id),
  book        text          NOT NULL CHECK (book IN ('demo', 'live')),
  used_minor  numeric(78,0) NOT NULL DEFAULT 0 CHECK (used_minor >= 0),
  PRIMARY KEY (product_id, book)
);

CREATE TABLE earn_investments (
  id                  bigserial PRIMARY KEY,
  product_id          bigint        NOT NULL REFERENCES earn_products (id),
  user_id             bigint        NOT NULL REFERENCES users (id),
  book                text          NOT NULL CHECK (book IN ('demo', 'live')),
  asset               text          NOT NULL,
  -- the figures of the purchase (a later change of the product does not touch them)
  amount_minor        numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  income              text          NOT NULL CHECK (income IN ('static', 'dynamic')),
  term_days           integer,
  annual_rate_ppm     bigint,
  penalty_ppm         bigint        NOT NULL,
  total_interest      numeric(78,0),
  one_per_customer    boolean       NOT NULL,
  pay_with            text          NOT NULL CHECK (pay_with IN ('balance', 'proof')),
  status              text          NOT NULL CHECK (status IN ('pending', 'in_progress', 'redeemed', 'expired', 'rejected')),
  -- the customer's request (one investment per request id)
  request_key         text          NOT NULL UNIQUE,
  entry_id            bigint,
  -- purchase by proof
  tx_hash             text,
  proof_upload        text,
  clearing_hold_id    bigint,
  -- the entry that moved the promised interest from the reserve to the owed account
  promise_entry_id    bigint,
  -- first and last day of interest (UTC days); end_day null when flexible
  accrual_start       date,
  end_day             date,
  redeemed_day        date,
  redeemed_at         timestamptz,
  received_minor      numeric(78,0),
  penalty_minor       numeric(78,0),
  matured_at          timestamptz,
  reason              text,
  -- a rejected proof's promised interest went back to the reserve (entry id)
  unpromise_entry_id  bigint,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX earn_investments_user_idx ON earn_investments (user_id, book, id DESC);
CREATE INDEX earn_investments_settle_idx ON earn_investments (product_id, book, id)
  WHERE status IN ('in_progress', 'redeemed', 'expired');
CREATE INDEX earn_investments_proof_idx ON earn_investments (id) WHERE status = 'pending';
CREATE UNIQUE INDEX earn_investments_tx_hash_key ON earn_investments (tx_hash) WHERE tx_hash IS NOT NULL AND status <> 'rejected';
-- spec 10024: one investment in progress (or waiting for review) per customer and product
CREATE UNIQUE INDEX earn_investments_one_key ON earn_investments (product_id, user_id, book)
  WHERE one_per_customer AND status IN ('pending', 'in_progress');

-- Each day's income of an investment, written in the payment's ledger transaction.
CREATE TABLE earn_incomes (
  investment_id  bigint        NOT NULL REFERENCES earn_investments (id),
  day            date          NOT NULL,
  amount_minor   numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  entry_id       bigint        NOT NULL,
  PRIMARY KEY (investment_id, day)
);

-- A dynamic product's published daily rate (its basket's realised return) and unit price (1e8 = 1).
CREATE TABLE earn_rates (
  product_id      bigint        NOT NULL REFERENCES earn_products (id),
  day             date          NOT NULL,
  rate_ppm        bigint        NOT NULL,
  unit_price_e8   numeric(40,0) NOT NULL CHECK (unit_price_e8 > 0),
  PRIMARY KEY (product_id, day)
);

-- One staff alert per product, book and day when its reserve refuses a purchase.
CREATE TABLE earn_reserve_alerts (
  product_id  bigint NOT NULL,
  book        text   NOT NULL,
  day         date   NOT NULL,
  PRIMARY KEY (product_id, book, day)
);
