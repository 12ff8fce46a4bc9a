-- The check that every entry nets to zero per asset reads only the postings the statement
-- inserted (its transition table), never the postings table.
--
-- Before, it summed ledger_postings for the touched entries: `WHERE entry_id IN (SELECT ... FROM
-- inserted) ... HAVING sum(amount) <> 0 LIMIT 1`. The LIMIT 1 made the planner expect an early
-- hit, and with no statistics on the table it could pick a merge join that reads the postings
-- table's whole primary key (17 to 165 ms at 80,000 postings, growing with the table) instead of
-- one index probe per entry. PL/pgSQL keeps the plan a connection made at the trigger's first
-- firing: a connection that first fired on a batch of 31 kept the full scan, one that first fired
-- on a single entry kept the probes. That was the ledger's hot-account cliff (issue 19).
--
-- Summing the transition table alone is the same rule: postings are append-only (never updated
-- or deleted), and every earlier statement left each of its entries at zero per asset, so an
-- entry's total after this statement is zero exactly when the postings this statement added to
-- it sum to zero. The check now costs what the statement inserted, whatever the table's size.
CREATE OR REPLACE FUNCTION ledger_postings_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT i.entry_id, i.asset, sum(i.amount) AS total INTO bad
  FROM inserted i
  GROUP BY i.entry_id, i.asset
  HAVING sum(i.amount) <> 0
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger entry % does not net to zero in %: %', bad.entry_id, bad.asset, bad.total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
