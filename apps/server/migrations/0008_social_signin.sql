-- Social sign-in with OpenID Connect providers: the identities linked to customers, and the short
-- server-side record of each sign-in that has been started and not yet finished.

-- One provider identity (issuer + subject, as the ID token names them) belongs to one customer.
-- The email is the one the provider gave when the link was made, and whether it said it was
-- verified: kept to explain a link later, never used to find the customer again.
CREATE TABLE social_identities (
  issuer         text        NOT NULL CHECK (length(issuer) BETWEEN 1 AND 512),
  subject        text        NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  user_id        bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider       text        NOT NULL CHECK (provider ~ '^[a-z][a-z0-9]{1,19}$'),
  email          text        CHECK (email IS NULL OR length(email) <= 254),
  email_verified boolean     NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_login_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX social_identities_user_idx ON social_identities (user_id);

-- A started sign-in: found by the SHA-256 of its state, tied to the browser that started it by the
-- SHA-256 of a random value held in that browser's HttpOnly cookie, valid 10 minutes, and deleted
-- when it is used (or tried), so a state works once. The nonce and PKCE verifier stay here, never
-- in the browser.
CREATE TABLE social_login_flows (
  state_hash    text        PRIMARY KEY CHECK (state_hash ~ '^[a-f0-9]{64}$'),
  provider      text        NOT NULL CHECK (provider ~ '^[a-z][a-z0-9]{1,19}$'),
  binding_hash  text        NOT NULL CHECK (binding_hash ~ '^[a-f0-9]{64}$'),
  nonce         text        NOT NULL CHECK (length(nonce) BETWEEN 16 AND 128),
  code_verifier text        NOT NULL CHECK (code_verifier ~ '^[A-Za-z0-9._~-]{43,128}$'),
  redirect_uri  text        NOT NULL CHECK (length(redirect_uri) <= 2048),
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX social_login_flows_expires_idx ON social_login_flows (expires_at);
