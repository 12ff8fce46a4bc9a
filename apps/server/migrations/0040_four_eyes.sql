-- Four eyes that can be switched on: every review kind with four eyes reads
-- `fourEyesAbove.<kind>.<asset>` (the amount in the asset's units); above it an approval needs a
-- second staff member. Each kind and asset gets a threshold of about 10,000 USD at the catalogue's
-- reference prices (BTC 110,000, ETH 4,000 USDT): 10,000 USDT, 10,000 USDC, 0.1 BTC, 2.5 ETH.
-- Thresholds staff already changed are left alone; the earlier seeds (5 ETH, 0.2 BTC, about twice
-- that) move to the same equivalent.
INSERT INTO system_params (key, value, description)
SELECT 'fourEyesAbove.' || k.kind || '.' || a.asset, a.value,
       'Above this many ' || a.asset || ' ' || k.noun || ' needs two approvers'
FROM (VALUES ('loan', 'a loan'),
             ('loanRepayment', 'a loan repayment by transfer'),
             ('earn', 'a fund payment proof'),
             ('withdrawal', 'a withdrawal'),
             ('depositProof', 'a deposit proof')) AS k (kind, noun)
CROSS JOIN (VALUES ('USDT', '10000'), ('USDC', '10000'), ('BTC', '0.1'), ('ETH', '2.5')) AS a (asset, value)
ON CONFLICT (key) DO NOTHING;

UPDATE system_params SET value = '2.5', updated_at = now()
WHERE key IN ('fourEyesAbove.loan.ETH', 'fourEyesAbove.loanRepayment.ETH', 'fourEyesAbove.withdrawal.ETH')
  AND value = '5';
UPDATE system_params SET value = '0.1', updated_at = now()
WHERE key IN ('fourEyesAbove.loan.BTC', 'fourEyesAbove.loanRepayment.BTC', 'fourEyesAbove.withdrawal.BTC')
  AND value = '0.2';

-- A change of a threshold: proposed by one admin, applied when another approves it (the proposer
-- cannot), or turned down. At most one change of a threshold waits at a time.
CREATE TABLE four_eyes_proposals (
  id           bigserial   PRIMARY KEY,
  key          text        NOT NULL CHECK (key ~ '^fourEyesAbove\.[A-Za-z]+\.[A-Z]+$'),
  -- The proposed threshold; NULL removes it (one approval then suffices).
  value        text        CHECK (value IS NULL OR value ~ '^\d+(\.\d+)?$'),
  -- The threshold when the change was proposed (NULL: none was set).
  before       text,
  proposed_by  bigint      NOT NULL REFERENCES staff (id),
  proposed_at  timestamptz NOT NULL,
  decision     text        CHECK (decision IN ('approved', 'rejected')),
  decided_by   bigint      REFERENCES staff (id),
  decided_at   timestamptz,
  CHECK ((decision IS NULL) = (decided_by IS NULL) AND (decision IS NULL) = (decided_at IS NULL)),
  CHECK (decision IS DISTINCT FROM 'approved' OR decided_by <> proposed_by)
);
CREATE UNIQUE INDEX four_eyes_proposals_waiting ON four_eyes_proposals (key) WHERE decision IS NULL;
