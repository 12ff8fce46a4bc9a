-- Account security: TOTP second factor, its recovery codes, and the short-lived login challenge
-- between the password step and the code step. Sessions keep their random public id (sessions.id,
-- unrelated to the token), user agent, address and times, which is all the sessions list shows.

-- One authenticator per user. The secret is AES-256-GCM ciphertext under the server's TOTP_KEY,
-- never plain text. It is pending until a first code confirms it (enabled_at set). last_step is
-- the newest 30-second step a code was accepted for: a step at or below it is a replay.
CREATE TABLE totp_credentials (
  user_id    bigint      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret_enc text        NOT NULL CHECK (secret_enc ~ '^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$'),
  enabled_at timestamptz,
  last_step  bigint      NOT NULL DEFAULT 0 CHECK (last_step >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Single-use recovery codes, stored only as SHA-256 (of the user id and the code).
CREATE TABLE recovery_codes (
  id         bigserial   PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash  text        NOT NULL CHECK (code_hash ~ '^[a-f0-9]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at    timestamptz
);
CREATE UNIQUE INDEX recovery_codes_user_hash_key ON recovery_codes (user_id, code_hash);

-- The password was right and a second factor is due: an opaque random challenge, known here only
-- by its SHA-256, valid 5 minutes, for at most 5 attempts, used once.
CREATE TABLE login_challenges (
  challenge_hash text        PRIMARY KEY CHECK (challenge_hash ~ '^[a-f0-9]{64}$'),
  user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  attempts       integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX login_challenges_user_idx ON login_challenges (user_id);

-- The sessions list orders a user's sessions by last use; this index also serves user_id alone.
CREATE INDEX sessions_user_seen_idx ON sessions (user_id, last_seen_at DESC);
DROP INDEX sessions_user_idx;
