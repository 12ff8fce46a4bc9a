-- The rule of a customer's loan limit (loans module), a system parameter set by staff with four
-- eyes: `loans.limitRule`, a JSON value (the contract's `loanLimitRule`). The limit is a share of
-- each product's maximum: `baseShare` once identity is verified, plus `stepShare` for each loan
-- repaid on time that ran at least `minLoanDays` from its payout (less one step per loan that went
-- overdue), never above `maxShare`; a step is at most a quarter, so the limit grows gradually.
-- The seeded rule: 50 %, +10 % a loan of 30 days or more, up to 100 %.
INSERT INTO system_params (key, value, description)
VALUES ('loans.limitRule', '{"baseShare":"0.5","stepShare":"0.1","maxShare":"1","minLoanDays":30}',
        'The rule of customers'' loan limits (changed with four eyes)')
ON CONFLICT (key) DO NOTHING;

-- A change of any system parameter staff change under four eyes (the four-eyes thresholds, the
-- loan limit rule) is a row of `four_eyes_proposals`: a key is any parameter's, and each setting's
-- service checks its values; a threshold's stays an amount.
ALTER TABLE four_eyes_proposals DROP CONSTRAINT four_eyes_proposals_key_check;
ALTER TABLE four_eyes_proposals DROP CONSTRAINT four_eyes_proposals_value_check;
ALTER TABLE four_eyes_proposals ADD CONSTRAINT four_eyes_proposals_key_check
  CHECK (key ~ '^[A-Za-z][A-Za-z0-9_.-]{0,63}$');
ALTER TABLE four_eyes_proposals ADD CONSTRAINT four_eyes_proposals_value_check
  CHECK (value IS NULL OR NOT starts_with(key, 'fourEyesAbove.') OR value ~ '^\d+(\.\d+)?$');
