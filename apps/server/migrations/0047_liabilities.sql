-- Proof of liabilities (modules/proofs): each day's Merkle sum tree per asset of the live book's
-- customer balances. A root is published signed; the leaves are kept so that each customer's
-- branch is built again on demand (the tree's upper levels are recomputed from them).

CREATE TABLE proof_roots (
  day          date          NOT NULL,
  asset        text          NOT NULL REFERENCES ledger_assets (code),
  taken_at     timestamptz   NOT NULL,
  root_hash    text          NOT NULL CHECK (root_hash ~ '^[0-9a-f]{64}$'),
  leaf_count   integer       NOT NULL CHECK (leaf_count >= 0),
  balance      numeric(78,0) NOT NULL CHECK (balance >= 0),
  earn         numeric(78,0) NOT NULL CHECK (earn >= 0),
  smart        numeric(78,0) NOT NULL CHECK (smart >= 0),
  loan         numeric(78,0) NOT NULL CHECK (loan >= 0),
  key_id       text          NOT NULL,
  public_key   text          NOT NULL CHECK (public_key ~ '^[0-9a-f]{64}$'),
  message      text          NOT NULL,
  signature    text          NOT NULL CHECK (signature ~ '^[0-9a-f]{128}$'),
  assets       jsonb,
  PRIMARY KEY (day, asset)
);

CREATE TABLE proof_leaves (
  day         date          NOT NULL,
  asset       text          NOT NULL,
  position    integer       NOT NULL CHECK (position >= 0),
  customer_id bigint        NOT NULL,
  leaf_hash   bytea         NOT NULL,
  balance     numeric(78,0) NOT NULL CHECK (balance >= 0),
  earn        numeric(78,0) NOT NULL CHECK (earn >= 0),
  smart       numeric(78,0) NOT NULL CHECK (smart >= 0),
  loan        numeric(78,0) NOT NULL CHECK (loan >= 0),
  PRIMARY KEY (day, asset, position),
  FOREIGN KEY (day, asset) REFERENCES proof_roots (day, asset),
  UNIQUE (day, asset, customer_id)
);
CREATE INDEX proof_leaves_customer_idx ON proof_leaves (customer_id, day);
