-- The staff review queue (modules/review), one table for every "customer submits, staff decide"
-- kind. The item itself lives in its product's table (kyc_submissions, …); its row here holds the
-- review: the claim (one staff member, a lease that ends), the first approval of a four-eyes item,
-- a decision being carried out (intent: recorded before its ledger effect, which runs under a key
-- of its own, and finished or withdrawn after it), and the decision. A row appears at the first
-- claim of an item.
CREATE TABLE review_items (
  kind              text        NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{1,39}$'),
  item_id           bigint      NOT NULL CHECK (item_id > 0),
  claimed_by        bigint      REFERENCES staff (id),
  claim_until       timestamptz,
  first_approver    bigint      REFERENCES staff (id),
  first_approved_at timestamptz,
  intent            text        CHECK (intent IN ('approved', 'rejected')),
  intent_by         bigint      REFERENCES staff (id),
  intent_at         timestamptz,
  decision          text        CHECK (decision IN ('approved', 'rejected')),
  decided_by        bigint      REFERENCES staff (id),
  decided_at        timestamptz,
  reason            text        CHECK (reason IS NULL OR length(reason) BETWEEN 3 AND 500),
  PRIMARY KEY (kind, item_id),
  CHECK ((claimed_by IS NULL) = (claim_until IS NULL)),
  CHECK ((first_approver IS NULL) = (first_approved_at IS NULL)),
  CHECK ((intent IS NULL) = (intent_by IS NULL) AND (intent IS NULL) = (intent_at IS NULL)),
  CHECK ((decision IS NULL) = (decided_by IS NULL) AND (decision IS NULL) = (decided_at IS NULL)),
  -- A rejection carries its reason from the moment it is recorded.
  CHECK ((COALESCE(decision, intent) = 'rejected') = (reason IS NOT NULL)),
  -- Decided: nothing is claimed or being carried out any more.
  CHECK (decision IS NULL OR (intent IS NULL AND claimed_by IS NULL)),
  -- Four eyes: the approval that completes an item never comes from its first approver.
  CHECK (first_approver IS NULL OR intent IS DISTINCT FROM 'approved' OR intent_by <> first_approver),
  CHECK (first_approver IS NULL OR decision IS DISTINCT FROM 'approved' OR decided_by <> first_approver)
);
-- Decisions left half-way (a node stopped between the ledger effect and the record) are found
-- and finished by the review.resume job.
CREATE INDEX review_items_intent_idx ON review_items (intent_at) WHERE intent IS NOT NULL;

-- A decided review never changes again.
CREATE FUNCTION review_items_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.decision IS NOT NULL THEN
    RAISE EXCEPTION 'review % % is % and cannot change', OLD.kind, OLD.item_id, OLD.decision;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER review_items_decided BEFORE UPDATE OR DELETE ON review_items
  FOR EACH ROW EXECUTE FUNCTION review_items_decided();
