-- Deposits and withdrawals (modules/wallet): networks as data, customers' deposit addresses
-- (derived from the platform's extended public key: no private key here), deposits seen on chain or
-- declared with a proof, the withdrawal address book, withdrawals, and the chain watcher's cursor.
-- Amounts are minor units of the network's asset (numeric(78,0)), never floats.

CREATE TABLE wallet_networks (
  id                   text          PRIMARY KEY CHECK (id ~ '^[A-Z0-9]{2,10}-[A-Z0-9]{2,10}$'),
  asset                text          NOT NULL REFERENCES ledger_assets (code),
  chain                text          NOT NULL CHECK (chain IN ('evm', 'bitcoin')),
  name                 text          NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
  address_format       text          NOT NULL CHECK (address_format IN ('evm', 'bech32')),
  -- The platform follows this chain: deposits are credited by the watcher, withdrawals are sent.
  watched              boolean       NOT NULL,
  deposit_minimum      numeric(78,0) NOT NULL CHECK (deposit_minimum > 0),
  credit_confirmations integer       NOT NULL CHECK (credit_confirmations >= 1),
  unlock_confirmations integer       NOT NULL,
  block_seconds        integer       NOT NULL CHECK (block_seconds >= 1),
  -- A ratio below 1 with at most 6 decimals (numeric, exact).
  withdrawal_fee_rate  numeric(7,6)  NOT NULL CHECK (withdrawal_fee_rate >= 0 AND withdrawal_fee_rate < 1),
  withdrawal_minimum   numeric(78,0) NOT NULL CHECK (withdrawal_minimum > 0),
  withdrawal_maximum   numeric(78,0) NOT NULL,
  arrival_minutes      integer       NOT NULL CHECK (arrival_minutes >= 1),
  enabled              boolean       NOT NULL DEFAULT true,
  updated_at           timestamptz   NOT NULL DEFAULT now(),
  CHECK (unlock_confirmations >= credit_confirmations),
  CHECK (withdrawal_maximum >= withdrawal_minimum)
);

-- Spec §9: minimum deposits USDT 120, BTC 0.015, ETH 0.2. Bitcoin has no node here: deposits by proof.
INSERT INTO wallet_networks (id, asset, chain, name, address_format, watched, deposit_minimum,
  credit_confirmations, unlock_confirmations, block_seconds, withdrawal_fee_rate,
  withdrawal_minimum, withdrawal_maximum, arrival_minutes) VALUES
  ('USDT-EVM', 'USDT', 'evm', 'Ethereum (ERC-20)', 'evm', true, 120000000, 12, 24, 12, 0.005,
    20000000, 50000000000, 10),
  ('ETH-EVM', 'ETH', 'evm', 'Ethereum', 'evm', true, 200000000000000000, 12, 24, 12, 0.005,
    10000000000000000, 20000000000000000000, 10),
  ('BTC-BTC', 'BTC', 'bitcoin', 'Bitcoin (SegWit)', 'bech32', false, 1500000, 2, 3, 600, 0.005,
    100000, 200000000, 60);

-- Two approvers above these amounts; daily withdrawal limits per customer, higher once verified.
INSERT INTO system_params (key, value, description) VALUES
  ('fourEyesAbove.withdrawal.USDT', '10000', 'A withdrawal above this many USDT needs two approvers'),
  ('fourEyesAbove.withdrawal.ETH', '5', 'A withdrawal above this many ETH needs two approvers'),
  ('fourEyesAbove.withdrawal.BTC', '0.2', 'A withdrawal above this many BTC needs two approvers'),
  ('withdrawalDailyLimit.USDT', '2000', 'Withdrawals per customer and UTC day, identity not verified'),
  ('withdrawalDailyLimit.ETH', '1', 'Withdrawals per customer and UTC day, identity not verified'),
  ('withdrawalDailyLimit.BTC', '0.05', 'Withdrawals per customer and UTC day, identity not verified'),
  ('withdrawalDailyLimitVerified.USDT', '100000', 'Withdrawals per customer and UTC day, identity verified'),
  ('withdrawalDailyLimitVerified.ETH', '50', 'Withdrawals per customer and UTC day, identity verified'),
  ('withdrawalDailyLimitVerified.BTC', '2', 'Withdrawals per customer and UTC day, identity verified')
ON CONFLICT (key) DO NOTHING;

-- One derivation index per customer (the user id): the same address for every network of a chain.
CREATE TABLE wallet_deposit_addresses (
  user_id    bigint      NOT NULL REFERENCES users (id),
  chain      text        NOT NULL CHECK (chain IN ('evm', 'bitcoin')),
  path_index bigint      NOT NULL CHECK (path_index >= 0 AND path_index < 2147483648),
  address    text        NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, chain),
  UNIQUE (chain, address),
  UNIQUE (chain, path_index)
);

-- A deposit seen on chain (per transaction and log index; -1 for a native transfer) or declared
-- with a proof. tx_hash is lowercase hex without 0x, so the same transaction is one hash whichever
-- way it arrives.
CREATE TABLE wallet_deposits (
  id                bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id           bigint        NOT NULL REFERENCES users (id),
  network           text          NOT NULL REFERENCES wallet_networks (id),
  asset             text          NOT NULL REFERENCES ledger_assets (code),
  amount            numeric(78,0) NOT NULL CHECK (amount > 0),
  source            text          NOT NULL CHECK (source IN ('chain', 'proof')),
  state             text          NOT NULL CHECK (state IN ('confirming', 'credited', 'available',
                      'below_minimum', 'reversed', 'pending_review', 'rejected')),
  tx_hash           text          NOT NULL CHECK (tx_hash ~ '^[0-9a-f]{64}$'),
  log_index         integer       NOT NULL,
  address           text          NOT NULL,
  minimum           numeric(78,0) NOT NULL,
  block_number      bigint,
  block_hash        text,
  last_six          text,
  proof_upload      text,
  clearing_hold_id  bigint,
  credit_entry_id   bigint,
  lock_hold_id      bigint,
  reversal_entry_id bigint,
  reason            text,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  credited_at       timestamptz,
  CHECK ((source = 'chain') = (block_number IS NOT NULL)),
  CHECK (source = 'chain' OR (last_six IS NOT NULL AND proof_upload IS NOT NULL AND log_index = -2))
);
CREATE UNIQUE INDEX wallet_deposits_chain_key ON wallet_deposits (tx_hash, log_index) WHERE source = 'chain';
-- A transaction declared by proof once (a rejected declaration frees it).
CREATE UNIQUE INDEX wallet_deposits_proof_key ON wallet_deposits (tx_hash) WHERE source = 'proof' AND state <> 'rejected';
CREATE INDEX wallet_deposits_user_idx ON wallet_deposits (user_id, id DESC);
CREATE INDEX wallet_deposits_open_idx ON wallet_deposits (id) WHERE state IN ('confirming', 'credited');
CREATE INDEX wallet_deposits_review_idx ON wallet_deposits (id) WHERE state = 'pending_review';
-- A declared deposit is found by the clearing hold that carries it (one row per hold).
CREATE UNIQUE INDEX wallet_deposits_clearing_hold_key ON wallet_deposits (clearing_hold_id) WHERE clearing_hold_id IS NOT NULL;

-- The withdrawal address book. A removed address stays (withdrawals name it).
CREATE TABLE wallet_addresses (
  id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id),
  network    text        NOT NULL REFERENCES wallet_networks (id),
  address    text        NOT NULL CHECK (length(address) BETWEEN 14 AND 100),
  label      text        NOT NULL CHECK (length(label) <= 40),
  created_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz
);
CREATE UNIQUE INDEX wallet_addresses_live_key ON wallet_addresses (user_id, network, address) WHERE removed_at IS NULL;

CREATE TABLE wallet_withdrawals (
  id           bigint        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id      bigint        NOT NULL REFERENCES users (id),
  request_id   text          NOT NULL,
  network      text          NOT NULL REFERENCES wallet_networks (id),
  asset        text          NOT NULL REFERENCES ledger_assets (code),
  address_id   bigint        NOT NULL REFERENCES wallet_addresses (id),
  address      text          NOT NULL,
  amount       numeric(78,0) NOT NULL CHECK (amount > 0),
  fee          numeric(78,0) NOT NULL CHECK (fee >= 0),
  receive      numeric(78,0) NOT NULL CHECK (receive > 0),
  state        text          NOT NULL CHECK (state IN ('pending_review', 'approved', 'sent', 'completed',
                 'rejected', 'failed')),
  hold_id      bigint        NOT NULL,
  nonce        integer,
  raw_tx       text,
  tx_hash      text,
  sent_block   bigint,
  post_entry_id bigint,
  -- The follow-up entry that splits a posted withdrawal: the amount received to clearing, the fee to fees.
  settle_entry_id bigint,
  reason       text,
  created_at   timestamptz   NOT NULL DEFAULT now(),
  updated_at   timestamptz   NOT NULL DEFAULT now(),
  completed_at timestamptz,
  UNIQUE (user_id, request_id),
  CHECK (amount = fee + receive)
);
CREATE INDEX wallet_withdrawals_user_idx ON wallet_withdrawals (user_id, id DESC);
CREATE INDEX wallet_withdrawals_open_idx ON wallet_withdrawals (id) WHERE state IN ('pending_review', 'approved', 'sent');
CREATE INDEX wallet_withdrawals_day_idx ON wallet_withdrawals (user_id, asset, created_at);

-- The hot wallet's next nonce, per chain and address: a signed transaction keeps its nonce.
CREATE TABLE wallet_hot_nonces (
  chain_id   bigint  NOT NULL,
  address    text    NOT NULL,
  next_nonce integer NOT NULL CHECK (next_nonce >= 0),
  PRIMARY KEY (chain_id, address)
);

-- How far the watcher has read each chain.
CREATE TABLE wallet_chain_cursor (
  chain_id     bigint PRIMARY KEY,
  block_number bigint NOT NULL,
  block_hash   text   NOT NULL
);

-- A customer's last security change (password, two-step removal) locks their addresses for a day.
ALTER TABLE users ADD COLUMN two_step_removed_at timestamptz;

-- A code mailed to confirm a withdrawal (when two-step sign-in is off).
ALTER TABLE verification_codes DROP CONSTRAINT verification_codes_purpose_check;
ALTER TABLE verification_codes ADD CONSTRAINT verification_codes_purpose_check
  CHECK (purpose IN ('register', 'reset', 'withdrawal'));
