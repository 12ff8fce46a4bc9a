-- The rule of a customer's loan limit (loans module), set by staff with four eyes: one proposes a
-- rule, another approves it (the proposer cannot), and the latest approved rule applies. The limit
-- is a share of each product's maximum: `base_ppm` once identity is verified, plus `step_ppm` for
-- each loan repaid on time that ran at least `min_loan_days` from its payout (less one step per
-- loan that went overdue), never above `max_ppm`. A step is bounded (at most a quarter), so the
-- limit grows gradually. The seeded rule: 50 %, +10 % a loan of 30 days or more, up to 100 %.
CREATE TABLE loan_limit_rules (
  id             bigserial   PRIMARY KEY,
  base_ppm       bigint      NOT NULL CHECK (base_ppm BETWEEN 0 AND 1000000),
  step_ppm       bigint      NOT NULL CHECK (step_ppm BETWEEN 0 AND 250000),
  max_ppm        bigint      NOT NULL CHECK (max_ppm BETWEEN 0 AND 1000000),
  min_loan_days  integer     NOT NULL CHECK (min_loan_days BETWEEN 0 AND 365),
  state          text        NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
  -- NULL: the rule the platform started with.
  proposed_by    bigint      REFERENCES staff (id),
  proposed_at    timestamptz NOT NULL,
  decided_by     bigint      REFERENCES staff (id),
  decided_at     timestamptz,
  CHECK (base_ppm <= max_ppm),
  CHECK (state = 'pending' OR proposed_by IS NULL OR decided_by IS NOT NULL),
  CHECK (state <> 'approved' OR proposed_by IS NULL OR decided_by <> proposed_by)
);
-- At most one change waits at a time.
CREATE UNIQUE INDEX loan_limit_rules_waiting ON loan_limit_rules ((true)) WHERE state = 'pending';

INSERT INTO loan_limit_rules (base_ppm, step_ppm, max_ppm, min_loan_days, state, proposed_at)
VALUES (500000, 100000, 1000000, 30, 'approved', now());
