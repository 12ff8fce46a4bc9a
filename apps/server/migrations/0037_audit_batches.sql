-- One audit row per ledger batch (issue 19). A ledger batch (the group commit of ledger.batch.ts)
-- appended one audit row per operation; it now appends ONE row for the whole batch. The row keeps
-- each operation's facts (actor, action, subject, canonical data) in parallel arrays, and the
-- SHA-256 digest of each, in order; the row's hash covers that list of digests. So:
--   * each operation still has its own number: the row's seq is its first operation's, the next
--     row starts after its last (audit_head.seq is the last number given);
--   * audit:verify recomputes every operation's digest from its stored facts and checks it against
--     the list (a changed operation is named by its number), then the row's hash and the chain;
--   * the back office search finds each operation by actor and by subject through the GIN indexes
--     below (fastupdate off: each insert pays its own index entries, never a pending-list flush).
-- Rows of other events (staff actions, alerts, ...) stay one per event, with NULL arrays.
ALTER TABLE audit_log
  ADD COLUMN op_actors   text[],
  ADD COLUMN op_actions  text[],
  ADD COLUMN op_subjects text[],
  ADD COLUMN op_data     text[],
  ADD COLUMN op_digests  text[];

ALTER TABLE audit_log ADD CONSTRAINT audit_log_batch_shape CHECK (
  (op_digests IS NULL AND op_actors IS NULL AND op_actions IS NULL AND op_subjects IS NULL AND op_data IS NULL)
  OR (cardinality(op_digests) >= 1
      AND cardinality(op_actors) = cardinality(op_digests)
      AND cardinality(op_actions) = cardinality(op_digests)
      AND cardinality(op_subjects) = cardinality(op_digests)
      AND cardinality(op_data) = cardinality(op_digests))
);

CREATE INDEX audit_log_op_actors_idx ON audit_log USING gin (op_actors) WITH (fastupdate = off);
CREATE INDEX audit_log_op_subjects_idx ON audit_log USING gin (op_subjects) WITH (fastupdate = off);
