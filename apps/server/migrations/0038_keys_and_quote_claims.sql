-- A quote commits once (modules/products/quotes.ts): the first commit of a quote claims it for
-- its request; a commit of the same quote under another request is refused, whatever its id.
-- `quote` is the quote id's MAC (unique per quote); a claim is kept until its quote has expired
-- (an expired quote is refused before any claim), then pruned by the products' job.
CREATE TABLE quote_claims (
  quote       text        PRIMARY KEY CHECK (quote ~ '^[A-Za-z0-9_-]{43}$'),
  request_key text        NOT NULL CHECK (length(request_key) BETWEEN 1 AND 200),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX quote_claims_expires_at ON quote_claims (expires_at);

-- Two-step secrets are sealed under a key id (platform/keys.ts): `v2.<key id>.<iv>.<tag>.<body>`.
-- A `v1` secret was sealed under TOTP_KEY, or, unset, under a key derived from a text published
-- in the code, which protected nothing; no server holds a key that opens one now. A customer's
-- goes with its recovery codes (two-step is off: they turn it on again); a staff member enrols
-- again at the next sign-in.
DELETE FROM recovery_codes WHERE user_id IN (SELECT user_id FROM totp_credentials WHERE secret_enc LIKE 'v1.%');
DELETE FROM totp_credentials WHERE secret_enc LIKE 'v1.%';
UPDATE staff SET totp_secret_enc = NULL, totp_enabled_at = NULL, totp_last_step = 0 WHERE totp_secret_enc LIKE 'v1.%';
ALTER TABLE totp_credentials DROP CONSTRAINT totp_credentials_secret_enc_check;
ALTER TABLE totp_credentials ADD CONSTRAINT totp_credentials_secret_enc_check
  CHECK (secret_enc ~ '^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$');
ALTER TABLE staff DROP CONSTRAINT staff_totp_secret_enc_check;
ALTER TABLE staff ADD CONSTRAINT staff_totp_secret_enc_check
  CHECK (totp_secret_enc IS NULL OR totp_secret_enc ~ '^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$');
