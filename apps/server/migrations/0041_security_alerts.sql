-- Security alerts that reach people (issue 31, item 6).

-- The one-click lock link of a customer's security mail: only the SHA-256 of its token is kept;
-- single use (used_at), a week long. Using it locks the account (sessions end, sign-in is refused)
-- until customer service unlocks it.
CREATE TABLE account_lock_tokens (
  token_hash text        PRIMARY KEY CHECK (token_hash ~ '^[a-f0-9]{64}$'),
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event      text        NOT NULL CHECK (length(event) BETWEEN 1 AND 40),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX account_lock_tokens_user_idx ON account_lock_tokens (user_id);

-- Staff alerts get a life: open, acknowledged, resolved (each by whom), a key that keeps one
-- unresolved alert per recurring cause (a failing job), and when their mail to the roles that act
-- on them went out (the alerts job mails every unmailed one).
ALTER TABLE staff_alerts
  ADD COLUMN dedupe_key  text,
  ADD COLUMN resolved_at timestamptz,
  ADD COLUMN resolved_by text,
  ADD COLUMN mailed_at   timestamptz;
-- Alerts staff already acknowledged before this are not mailed now.
UPDATE staff_alerts SET mailed_at = acknowledged_at WHERE acknowledged_at IS NOT NULL;
CREATE INDEX staff_alerts_unmailed_idx ON staff_alerts (id) WHERE mailed_at IS NULL;
CREATE UNIQUE INDEX staff_alerts_unresolved_key ON staff_alerts (kind, dedupe_key)
  WHERE resolved_at IS NULL AND dedupe_key IS NOT NULL;
CREATE INDEX staff_alerts_state_idx ON staff_alerts (id DESC) WHERE resolved_at IS NULL;
