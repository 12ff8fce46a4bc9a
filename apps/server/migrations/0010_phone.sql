-- Registration by phone: a customer's phone number in E.164 (+<area code><number>, at most 15
-- digits), verified by an SMS code when the account was opened. At most one account per number.
-- The verification codes sent by SMS use verification_codes with channel 'sms' (0003).

ALTER TABLE users ADD COLUMN phone text CHECK (phone IS NULL OR phone ~ '^\+[1-9][0-9]{6,14}$');
CREATE UNIQUE INDEX users_phone_key ON users (phone) WHERE phone IS NOT NULL;
