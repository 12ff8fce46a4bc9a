-- Customers, their sessions and one-time verification codes.

CREATE TABLE users (
  id            bigserial PRIMARY KEY,
  user_name     text        NOT NULL CHECK (length(user_name) BETWEEN 3 AND 254),
  email         text        CHECK (email IS NULL OR email = lower(email)),
  password_hash text        NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  status        text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'locked')),
  language      text        NOT NULL DEFAULT 'en',
  created_at    timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_user_name_key ON users (lower(user_name));
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;

-- A session is known only by the SHA-256 of its token: the token itself is never stored.
CREATE TABLE sessions (
  id           text        PRIMARY KEY CHECK (id ~ '^[a-f0-9]{24}$'),
  user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash   text        NOT NULL UNIQUE CHECK (token_hash ~ '^[a-f0-9]{64}$'),
  user_agent   text        NOT NULL DEFAULT '',
  ip           text        NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Codes are stored hashed, expire, allow few attempts and are used once.
CREATE TABLE verification_codes (
  id         bigserial   PRIMARY KEY,
  channel    text        NOT NULL CHECK (channel IN ('email', 'sms')),
  target     text        NOT NULL,
  purpose    text        NOT NULL CHECK (purpose IN ('register', 'reset')),
  code_hash  text        NOT NULL,
  attempts   integer     NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX verification_codes_target_idx ON verification_codes (target, purpose, created_at DESC);
