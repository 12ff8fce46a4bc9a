-- The ledger: assets, accounts, append-only journal entries with postings that net to zero per
-- asset, two-phase holds, the hash-chained audit log and staff alerts.

CREATE TABLE ledger_assets (
  code  text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{2,12}$'),
  scale smallint NOT NULL CHECK (scale BETWEEN 0 AND 36)
);
INSERT INTO ledger_assets (code, scale) VALUES ('USDT', 6), ('USDC', 6), ('BTC', 8), ('ETH', 18);

-- One account per (book, owner, asset, kind). Customer accounts may not go below zero, nor hold
-- more than they have: balance - held >= 0 is checked by the database on every change. System
-- accounts (clearing, house, reserves) may go negative where double entry needs them to.
CREATE TABLE ledger_accounts (
  id             bigserial PRIMARY KEY,
  book           text          NOT NULL CHECK (book IN ('demo', 'live')),
  owner_id       bigint,
  asset          text          NOT NULL REFERENCES ledger_assets (code),
  kind           text          NOT NULL CHECK (kind ~ '^[a-z_]{2,40}$'),
  allow_negative boolean       NOT NULL,
  balance        numeric(78,0) NOT NULL DEFAULT 0,
  held           numeric(78,0) NOT NULL DEFAULT 0 CHECK (held >= 0),
  created_at     timestamptz   NOT NULL DEFAULT now(),
  CHECK (allow_negative OR balance - held >= 0),
  -- A customer account is never allowed to go negative; only system accounts (no owner) may.
  CHECK (owner_id IS NULL OR NOT allow_negative),
  UNIQUE (id, book, asset)
);
CREATE UNIQUE INDEX ledger_accounts_owner_key ON ledger_accounts (book, coalesce(owner_id, 0), asset, kind);
CREATE INDEX ledger_accounts_owner_idx ON ledger_accounts (owner_id) WHERE owner_id IS NOT NULL;

CREATE TABLE ledger_entries (
  id                bigserial PRIMARY KEY,
  book              text        NOT NULL CHECK (book IN ('demo', 'live')),
  kind              text        NOT NULL CHECK (kind ~ '^[a-z_]{2,40}$'),
  idempotency_key   text        NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 8 AND 200),
  request_hash      text        NOT NULL,
  reference         text,
  actor             text        NOT NULL,
  reason            text,
  reverses_entry_id bigint      UNIQUE REFERENCES ledger_entries (id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, book)
);
CREATE INDEX ledger_entries_created_idx ON ledger_entries (created_at);

CREATE TABLE ledger_postings (
  entry_id   bigint        NOT NULL,
  account_id bigint        NOT NULL,
  book       text          NOT NULL,
  asset      text          NOT NULL,
  amount     numeric(78,0) NOT NULL CHECK (amount <> 0),
  PRIMARY KEY (entry_id, account_id),
  -- The book of a posting is its entry's and its account's: an entry can never mix books.
  FOREIGN KEY (entry_id, book) REFERENCES ledger_entries (id, book),
  FOREIGN KEY (account_id, book, asset) REFERENCES ledger_accounts (id, book, asset)
);
CREATE INDEX ledger_postings_account_idx ON ledger_postings (account_id, entry_id DESC);

-- Postings of one entry are inserted in one statement; after it, every entry it touched must net
-- to zero per asset. Checked by the database, whatever code inserted them.
CREATE FUNCTION ledger_postings_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT p.entry_id, p.asset, sum(p.amount) AS total INTO bad
  FROM ledger_postings p
  WHERE p.entry_id IN (SELECT DISTINCT entry_id FROM inserted)
  GROUP BY p.entry_id, p.asset
  HAVING sum(p.amount) <> 0
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not net to zero in %: %', bad.entry_id, bad.asset, bad.total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ledger_postings_balanced();

-- Two-phase holds: pending reserves part of an account's balance; it is later posted (an entry
-- moves the money) or voided (the reservation ends). Only that one transition is allowed.
CREATE TABLE ledger_holds (
  id                bigserial PRIMARY KEY,
  account_id        bigint        NOT NULL REFERENCES ledger_accounts (id),
  book              text          NOT NULL,
  asset             text          NOT NULL,
  amount            numeric(78,0) NOT NULL CHECK (amount > 0),
  status            text          NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'posted', 'voided')),
  idempotency_key   text          NOT NULL UNIQUE CHECK (length(idempotency_key) BETWEEN 8 AND 200),
  request_hash      text          NOT NULL,
  reference         text,
  actor             text          NOT NULL,
  resolution_key    text          UNIQUE,
  posted_entry_id   bigint        REFERENCES ledger_entries (id),
  created_at        timestamptz   NOT NULL DEFAULT now(),
  resolved_at       timestamptz,
  FOREIGN KEY (account_id, book, asset) REFERENCES ledger_accounts (id, book, asset)
);
CREATE INDEX ledger_holds_pending_idx ON ledger_holds (account_id) WHERE status = 'pending';

-- Journal rows are never changed or removed; corrections are reversing entries.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

CREATE FUNCTION ledger_holds_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'ledger_holds rows are never deleted' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.status <> 'pending' OR NEW.status = 'pending'
     OR (NEW.account_id, NEW.amount, NEW.idempotency_key, NEW.book, NEW.asset)
        IS DISTINCT FROM (OLD.account_id, OLD.amount, OLD.idempotency_key, OLD.book, OLD.asset) THEN
    RAISE EXCEPTION 'hold % may only go from pending to posted or voided', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ledger_holds_transition BEFORE UPDATE OR DELETE ON ledger_holds
  FOR EACH ROW EXECUTE FUNCTION ledger_holds_transition();

-- The audit log: one row per money movement and per staff action, each carrying the hash of the
-- row before it, so any later edit or removal breaks the chain. `data` is canonical JSON text
-- (not jsonb, which would reorder keys and change the hashed bytes).
CREATE TABLE audit_log (
  seq       bigint      PRIMARY KEY CHECK (seq > 0),
  at        text        NOT NULL,
  actor     text        NOT NULL,
  action    text        NOT NULL,
  subject   text        NOT NULL,
  data      text        NOT NULL,
  prev_hash text        NOT NULL,
  hash      text        NOT NULL UNIQUE
);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- The head of the chain, one row: locking it orders appends, and it holds the last seq and hash.
CREATE TABLE audit_head (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  seq       bigint  NOT NULL,
  hash      text    NOT NULL
);
INSERT INTO audit_head (seq, hash) VALUES (0, '');

-- Alerts for staff: reconciliation differences, reserve shortfalls, anything needing a person.
CREATE TABLE staff_alerts (
  id              bigserial PRIMARY KEY,
  kind            text        NOT NULL,
  message         text        NOT NULL,
  data            text        NOT NULL DEFAULT '{}',
  created_at      timestamptz NOT NULL DEFAULT now(),
  acknowledged_at timestamptz,
  acknowledged_by text
);
