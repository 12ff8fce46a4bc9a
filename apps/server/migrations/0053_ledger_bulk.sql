-- Compound entries (a bulk run's page: the source debited once, each holding credited by its own
-- posting). A holding's posting carries its idempotency key (`settle:…`, unique) and reference.
ALTER TABLE ledger_postings ADD COLUMN idempotency_key text, ADD COLUMN reference text;
ALTER TABLE ledger_postings ADD CONSTRAINT ledger_postings_key_form
  CHECK (idempotency_key IS NULL OR (idempotency_key LIKE 'settle:%' AND length(idempotency_key) <= 200)) NOT VALID;
CREATE UNIQUE INDEX ledger_postings_key ON ledger_postings (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- A key names an entry or a compound posting, never both: an entry under a `settle:` key (a
-- one-entry payment, e.g. a loan's catch-up) is refused when a compound posting already paid it
-- (the batcher then replays that posting's entry). The bulk write itself reads the entries' keys
-- after locking the source, which every writer of such a key locks too. Only `settle:` keys reach
-- the function: every other entry pays nothing for this check.
CREATE FUNCTION ledger_entry_key_free() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_postings p WHERE p.idempotency_key = NEW.idempotency_key) THEN
    RAISE EXCEPTION 'idempotency key % already names a compound posting', NEW.idempotency_key
      USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ledger_entries_key_free BEFORE INSERT ON ledger_entries
  FOR EACH ROW WHEN (NEW.idempotency_key LIKE 'settle:%') EXECUTE FUNCTION ledger_entry_key_free();
