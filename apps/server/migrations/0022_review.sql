-- The staff review queue (modules/review), one table for every "customer submits, staff decide"
-- kind. The item itself lives in its product's table (kyc_submissions, …); its row here holds the
-- review: the claim (one staff member, a lease that ends), the first approval of a four-eyes item,
-- and the decision (written in one transaction with its ledger effect, the product's record, the
-- audit row and the notice). A row appears at the first claim of an item.
CREATE TABLE review_items (
  kind              text        NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{1,39}$'),
  item_id           bigint      NOT NULL CHECK (item_id > 0),
  claimed_by        bigint      REFERENCES staff (id),
  claim_until       timestamptz,
  first_approver    bigint      REFERENCES staff (id),
  first_approved_at timestamptz,
  decision          text        CHECK (decision IN ('approved', 'rejected')),
  decided_by        bigint      REFERENCES staff (id),
  decided_at        timestamptz,
  reason            text        CHECK (reason IS NULL OR length(reason) BETWEEN 3 AND 500),
  PRIMARY KEY (kind, item_id),
  CHECK ((claimed_by IS NULL) = (claim_until IS NULL)),
  CHECK ((first_approver IS NULL) = (first_approved_at IS NULL)),
  CHECK ((decision IS NULL) = (decided_by IS NULL) AND (decision IS NULL) = (decided_at IS NULL)),
  -- A rejection, and only a rejection, carries its reason.
  CHECK ((decision IS NOT DISTINCT FROM 'rejected') = (reason IS NOT NULL)),
  -- Decided: nothing is claimed any more.
  CHECK (decision IS NULL OR claimed_by IS NULL),
  -- Four eyes: the approval that completes an item never comes from its first approver.
  CHECK (first_approver IS NULL OR decision IS DISTINCT FROM 'approved' OR decided_by <> first_approver)
);
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
