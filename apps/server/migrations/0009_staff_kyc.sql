-- Staff of the back office, kept apart from customers, and identity verification (KYC).

-- A staff account: its own table, argon2id passwords, one role. A new account carries a one-time
-- password (printed once by `npm run staff:create`) that must be replaced at the first sign-in,
-- together with the enrolment of an authenticator: every staff account has TOTP, there is no
-- sign-in without it. The secret is AES-256-GCM ciphertext (under a key derived from TOTP_KEY),
-- pending until a first code confirms it; last_step is the newest step accepted (replays refused).
CREATE TABLE staff (
  id                 bigserial   PRIMARY KEY,
  email              text        NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  role               text        NOT NULL CHECK (role IN ('admin', 'compliance', 'finance', 'support')),
  password_hash      text        NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  password_one_time  boolean     NOT NULL DEFAULT true,
  password_expires_at timestamptz,
  status             text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  totp_secret_enc    text        CHECK (totp_secret_enc IS NULL OR totp_secret_enc ~ '^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$'),
  totp_enabled_at    timestamptz,
  totp_last_step     bigint      NOT NULL DEFAULT 0 CHECK (totp_last_step >= 0),
  created_by         bigint      REFERENCES staff (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (totp_enabled_at IS NULL OR totp_secret_enc IS NOT NULL),
  -- A one-time password always expires; a chosen one does not.
  CHECK (password_one_time = (password_expires_at IS NOT NULL))
);
CREATE UNIQUE INDEX staff_email_key ON staff (email);

-- Staff sessions: only the SHA-256 of the token is stored; short absolute and idle limits.
CREATE TABLE staff_sessions (
  id           text        PRIMARY KEY CHECK (id ~ '^[a-f0-9]{24}$'),
  staff_id     bigint      NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
  token_hash   text        NOT NULL UNIQUE CHECK (token_hash ~ '^[a-f0-9]{64}$'),
  user_agent   text        NOT NULL DEFAULT '',
  ip           text        NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX staff_sessions_staff_idx ON staff_sessions (staff_id);

-- The step between a right password and the code (or the enrolment of the authenticator):
-- random, known only by its SHA-256, 5 minutes, 5 attempts, used once.
CREATE TABLE staff_challenges (
  challenge_hash text        PRIMARY KEY CHECK (challenge_hash ~ '^[a-f0-9]{64}$'),
  staff_id       bigint      NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
  purpose        text        NOT NULL CHECK (purpose IN ('totp', 'enrol')),
  attempts       integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX staff_challenges_staff_idx ON staff_challenges (staff_id);

-- Every lock and unlock of a customer by staff, with its reason (the audit log has it too).
CREATE TABLE customer_status_changes (
  id         bigserial   PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  staff_id   bigint      NOT NULL REFERENCES staff (id),
  action     text        NOT NULL CHECK (action IN ('lock', 'unlock')),
  reason     text        NOT NULL CHECK (length(reason) BETWEEN 3 AND 500),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_status_changes_user_idx ON customer_status_changes (user_id, id DESC);

-- Identity verification. One row per submission; a failed one stays as history and a new one is
-- submitted. At most one submission per user is pending or verified (the partial unique index),
-- so a second submission while one is under review, or after verification, cannot exist.
CREATE TABLE kyc_submissions (
  id            bigserial   PRIMARY KEY,
  user_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status        text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'failed')),
  first_name    text        NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name     text        NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  birthdate     date        NOT NULL,
  sex           text        NOT NULL CHECK (sex IN ('female', 'male')),
  country       text        NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  address       text        NOT NULL CHECK (length(address) BETWEEN 5 AND 300),
  phone_code    text        NOT NULL CHECK (phone_code ~ '^\+[0-9]{1,3}$'),
  phone_number  text        NOT NULL CHECK (phone_number ~ '^[0-9]{4,15}$'),
  document_type text        NOT NULL CHECK (document_type IN ('idCard', 'driverLicence', 'passport')),
  submitted_at  timestamptz NOT NULL DEFAULT now(),
  due_at        timestamptz NOT NULL,
  reviewed_at   timestamptz,
  reviewed_by   bigint      REFERENCES staff (id),
  reason        text        CHECK (reason IS NULL OR length(reason) BETWEEN 3 AND 500),
  CHECK ((status = 'pending') = (reviewed_at IS NULL)),
  CHECK ((status = 'pending') = (reviewed_by IS NULL)),
  CHECK ((status = 'failed') = (reason IS NOT NULL))
);
CREATE UNIQUE INDEX kyc_submissions_active_key ON kyc_submissions (user_id) WHERE status IN ('pending', 'verified');
CREATE INDEX kyc_submissions_user_idx ON kyc_submissions (user_id, id DESC);
CREATE INDEX kyc_submissions_pending_idx ON kyc_submissions (submitted_at) WHERE status = 'pending';

-- The three photos of a submission, re-encoded without metadata and kept in private storage.
-- id is a random public id (the storage key never leaves the server).
CREATE TABLE kyc_photos (
  id            text        PRIMARY KEY CHECK (id ~ '^[a-f0-9]{24}$'),
  submission_id bigint      NOT NULL REFERENCES kyc_submissions (id) ON DELETE CASCADE,
  side          text        NOT NULL CHECK (side IN ('front', 'back', 'inHand')),
  storage_key   text        NOT NULL CHECK (storage_key ~ '^[a-f0-9]{32}$'),
  content_type  text        NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  width         integer     NOT NULL CHECK (width > 0),
  height        integer     NOT NULL CHECK (height > 0),
  UNIQUE (submission_id, side)
);

-- A review only moves a pending submission; verified and failed never change again.
CREATE FUNCTION kyc_submissions_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'kyc submission % is % and cannot change', OLD.id, OLD.status;
  END IF;
  IF NEW.user_id <> OLD.user_id OR NEW.submitted_at <> OLD.submitted_at THEN
    RAISE EXCEPTION 'kyc submission % cannot change owner or time', OLD.id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER kyc_submissions_transition BEFORE UPDATE ON kyc_submissions
  FOR EACH ROW EXECUTE FUNCTION kyc_submissions_transition();
