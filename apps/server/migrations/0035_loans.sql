-- Loans without collateral (modules/loans), live book only.
--
-- Money lives in the ledger: per asset a lending pool (`loan_pool_1`, staff fund it), the interest
-- and late cost still to accrue on open loans (`loan_unearned_1`) and what loans have earned
-- (`loan_income_1`), all platform accounts that may NOT go negative; each customer's `loan`
-- account carries what they owe (principal + interest + late cost charged), mirrored by the system
-- account `loans_receivable`. These tables hold the terms, the states and the history.

CREATE TABLE loan_products (
  id                  bigserial PRIMARY KEY,
  name                text          NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
  asset               text          NOT NULL REFERENCES ledger_assets (code),
  min_minor           numeric(78,0) NOT NULL CHECK (min_minor > 0),
  max_minor           numeric(78,0) NOT NULL,
  -- the terms offered, in days
  terms               integer[]     NOT NULL CHECK (cardinality(terms) BETWEEN 1 AND 12),
  -- rates in millionths (500 = 0.05 % a day)
  daily_ppm           bigint        NOT NULL CHECK (daily_ppm BETWEEN 0 AND 999999),
  interest_free_days  integer       NOT NULL CHECK (interest_free_days BETWEEN 0 AND 365),
  late_daily_ppm      bigint        NOT NULL CHECK (late_daily_ppm BETWEEN 0 AND 999999),
  late_cap_ppm        bigint        NOT NULL CHECK (late_cap_ppm BETWEEN 0 AND 999999),
  enabled             boolean       NOT NULL,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  CHECK (max_minor >= min_minor)
);

CREATE TABLE loans (
  id                  bigserial PRIMARY KEY,
  user_id             bigint        NOT NULL REFERENCES users (id),
  product_id          bigint        NOT NULL REFERENCES loan_products (id),
  product_name        text          NOT NULL,
  asset               text          NOT NULL,
  book                text          NOT NULL DEFAULT 'live' CHECK (book = 'live'),
  -- the terms signed (a later change of the product does not touch them)
  amount_minor        numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  term_days           integer       NOT NULL CHECK (term_days BETWEEN 1 AND 365),
  daily_ppm           bigint        NOT NULL,
  interest_free_days  integer       NOT NULL,
  late_daily_ppm      bigint        NOT NULL,
  late_cap_ppm        bigint        NOT NULL,
  total_interest      numeric(78,0) NOT NULL CHECK (total_interest >= 0),
  late_cap            numeric(78,0) NOT NULL CHECK (late_cap >= 0),
  apr                 text          NOT NULL,
  state               text          NOT NULL CHECK (state IN ('pending', 'repaying', 'repaid', 'expired', 'rejected', 'withdrawn')),
  request_key         text          NOT NULL UNIQUE,
  -- the pool's reservation of the amount while the application waits
  pool_hold_id        bigint,
  signature_upload    text          NOT NULL,
  -- the signed agreement: its clauses, the PDF in private storage and its SHA-256
  agreement           jsonb         NOT NULL,
  agreement_key       text          NOT NULL,
  agreement_sha256    text          NOT NULL CHECK (agreement_sha256 ~ '^[0-9a-f]{64}$'),
  disbursed_day       date,
  due_day             date,
  disburse_entry_id   bigint,
  -- the entry that booked the receivable and the unearned interest
  booked_entry_id     bigint,
  -- charged so far (settled days) and repaid so far, minor units
  interest_charged    numeric(78,0) NOT NULL DEFAULT 0,
  late_charged        numeric(78,0) NOT NULL DEFAULT 0,
  principal_paid      numeric(78,0) NOT NULL DEFAULT 0,
  interest_paid       numeric(78,0) NOT NULL DEFAULT 0,
  late_paid           numeric(78,0) NOT NULL DEFAULT 0,
  -- the last day whose charge is posted (settlement or a repayment's catch-up)
  charged_through     date,
  closed_day          date,
  closed_at           timestamptz,
  -- once past the due date with money owed, for ever (the credit score's rule)
  was_overdue         boolean       NOT NULL DEFAULT false,
  reminded_3          boolean       NOT NULL DEFAULT false,
  reminded_1          boolean       NOT NULL DEFAULT false,
  reason              text,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  CHECK (principal_paid <= amount_minor),
  CHECK (interest_paid <= interest_charged AND late_paid <= late_charged),
  CHECK (interest_charged <= total_interest AND late_charged <= late_cap)
);
CREATE INDEX loans_user_idx ON loans (user_id, id DESC);
CREATE INDEX loans_pending_idx ON loans (id) WHERE state = 'pending';
CREATE INDEX loans_servicing_idx ON loans (asset, id) WHERE disbursed_day IS NOT NULL;
-- one loan in progress per customer
CREATE UNIQUE INDEX loans_one_open_key ON loans (user_id) WHERE state IN ('pending', 'repaying', 'expired');

-- What each settled day charged a loan, written in the charge's ledger transaction.
CREATE TABLE loan_charges (
  loan_id     bigint        NOT NULL REFERENCES loans (id),
  day         date          NOT NULL,
  interest    numeric(78,0) NOT NULL CHECK (interest >= 0),
  late        numeric(78,0) NOT NULL CHECK (late >= 0),
  entry_id    bigint        NOT NULL,
  PRIMARY KEY (loan_id, day)
);

CREATE TABLE loan_repayments (
  id                bigserial PRIMARY KEY,
  loan_id           bigint        NOT NULL REFERENCES loans (id),
  user_id           bigint        NOT NULL REFERENCES users (id),
  method            text          NOT NULL CHECK (method IN ('balance', 'proof')),
  amount_minor      numeric(78,0) NOT NULL CHECK (amount_minor > 0),
  state             text          NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  -- the allocation (null until the money reached the loan)
  late              numeric(78,0),
  interest          numeric(78,0),
  principal         numeric(78,0),
  day               date,
  request_key       text          NOT NULL UNIQUE,
  entry_id          bigint,
  -- by proof: the transfer, its image, the hold on external clearing, and applying it to the loan
  tx_hash           text,
  address           text,
  proof_upload      text,
  hold_id           bigint,
  applied_entry_id  bigint,
  reason            text,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  decided_at        timestamptz
);
CREATE INDEX loan_repayments_loan_idx ON loan_repayments (loan_id, id);
CREATE INDEX loan_repayments_pending_idx ON loan_repayments (id) WHERE state = 'pending';
CREATE INDEX loan_repayments_unapplied_idx ON loan_repayments (id)
  WHERE method = 'proof' AND state = 'approved' AND applied_entry_id IS NULL;
CREATE UNIQUE INDEX loan_repayments_tx_hash_key ON loan_repayments (tx_hash)
  WHERE tx_hash IS NOT NULL AND state <> 'rejected';
-- a principal part is written once, with its day: the interest of later days depends on it
CREATE INDEX loan_repayments_principal_idx ON loan_repayments (loan_id, day) WHERE principal > 0;

-- Two approvers above these amounts (a loan paid out; a repayment by transfer credited).
INSERT INTO system_params (key, value, description) VALUES
  ('fourEyesAbove.loan.USDT', '10000', 'A loan above this many USDT needs two approvers'),
  ('fourEyesAbove.loan.USDC', '10000', 'A loan above this many USDC needs two approvers'),
  ('fourEyesAbove.loan.ETH', '5', 'A loan above this many ETH needs two approvers'),
  ('fourEyesAbove.loan.BTC', '0.2', 'A loan above this many BTC needs two approvers'),
  ('fourEyesAbove.loanRepayment.USDT', '10000', 'A loan repayment by transfer above this many USDT needs two approvers'),
  ('fourEyesAbove.loanRepayment.USDC', '10000', 'A loan repayment by transfer above this many USDC needs two approvers'),
  ('fourEyesAbove.loanRepayment.ETH', '5', 'A loan repayment by transfer above this many ETH needs two approvers'),
  ('fourEyesAbove.loanRepayment.BTC', '0.2', 'A loan repayment by transfer above this many BTC needs two approvers')
ON CONFLICT (key) DO NOTHING;
