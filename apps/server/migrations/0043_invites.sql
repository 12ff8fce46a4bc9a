-- Invite friends (modules/invites): every customer's invite code, the links made at registration,
-- each day's reward per friend and asset, the days accrued and the payouts (one ledger entry of
-- kind `referral` per inviter and day, from the live `fees` account).

-- A customer's code (8 characters of INVITE_CODE_ALPHABET), made when first asked for, and the
-- part of the reward they give back to their friends: `rebate_bps` applies from `rebate_from`,
-- `rebate_prev_bps` before it (a change applies from the next day).
CREATE TABLE invite_codes (
  user_id         bigint      PRIMARY KEY REFERENCES users (id),
  code            text        NOT NULL UNIQUE CHECK (code ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$'),
  rebate_bps      integer     NOT NULL DEFAULT 0 CHECK (rebate_bps IN (0, 500, 1000)),
  rebate_prev_bps integer     NOT NULL DEFAULT 0 CHECK (rebate_prev_bps IN (0, 500, 1000)),
  rebate_from     date,
  created_at      timestamptz NOT NULL
);

-- inviter → friend, made once, at the friend's registration: a friend has one inviter for good
-- (UNIQUE), never themselves, and the link's parties and date never change (trigger); staff may
-- freeze it with a reason. `flags`: the anti-farming rules it tripped (same_identity,
-- same_device, same_address), sticky. `qualified_on`: the first day its fees count.
CREATE TABLE invite_links (
  id               bigserial   PRIMARY KEY,
  inviter_id       bigint      NOT NULL REFERENCES users (id),
  friend_id        bigint      NOT NULL UNIQUE REFERENCES users (id),
  registered_at    timestamptz NOT NULL,
  qualified_on     date,
  identity_checked boolean     NOT NULL DEFAULT false,
  flags            text[]      NOT NULL DEFAULT '{}'
    CHECK (flags <@ ARRAY['same_identity', 'same_device', 'same_address']::text[]),
  frozen_reason    text        CHECK (frozen_reason IS NULL OR length(frozen_reason) BETWEEN 3 AND 500),
  frozen_at        timestamptz,
  frozen_by        bigint      REFERENCES staff (id),
  CHECK (inviter_id <> friend_id),
  CHECK ((frozen_reason IS NULL) = (frozen_at IS NULL))
);
CREATE INDEX invite_links_inviter_idx ON invite_links (inviter_id, id DESC);

CREATE FUNCTION invite_links_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (NEW.inviter_id, NEW.friend_id, NEW.registered_at)
     IS DISTINCT FROM (OLD.inviter_id, OLD.friend_id, OLD.registered_at) THEN
    RAISE EXCEPTION 'an invite link is made at registration and never changed' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER invite_links_fixed BEFORE UPDATE OR DELETE ON invite_links
  FOR EACH ROW EXECUTE FUNCTION invite_links_fixed();

-- One day's reward of one link in one asset: `fee` the fees the ledger recorded from the friend,
-- `amount` the inviter's part and `rebate` the friend's (both floored), `share_bps`/`rebate_bps`
-- the terms applied. `capped` marks the part above the inviter's daily cap (refused daily_cap).
-- on_hold → paid (its entry) | cancelled (reason); refused from the start (reason).
CREATE TABLE invite_rewards (
  id           bigserial     PRIMARY KEY,
  link_id      bigint        NOT NULL REFERENCES invite_links (id),
  inviter_id   bigint        NOT NULL,
  friend_id    bigint        NOT NULL,
  day          date          NOT NULL,
  asset        text          NOT NULL REFERENCES ledger_assets (code),
  capped       boolean       NOT NULL DEFAULT false,
  fee          numeric(78,0) NOT NULL CHECK (fee >= 0),
  amount       numeric(78,0) NOT NULL CHECK (amount >= 0),
  rebate       numeric(78,0) NOT NULL CHECK (rebate >= 0),
  share_bps    integer       NOT NULL CHECK (share_bps BETWEEN 0 AND 10000),
  rebate_bps   integer       NOT NULL CHECK (rebate_bps BETWEEN 0 AND 10000),
  state        text          NOT NULL CHECK (state IN ('on_hold', 'paid', 'refused', 'cancelled')),
  reason       text          CHECK (reason IN ('same_identity', 'same_device', 'same_address', 'daily_cap',
                                'frozen', 'deposit_reversed', 'fraud_flag')),
  payable_on   date          NOT NULL,
  entry_id     bigint        REFERENCES ledger_entries (id),
  paid_at      timestamptz,
  cancelled_at timestamptz,
  UNIQUE (link_id, day, asset, capped),
  CHECK ((state IN ('refused', 'cancelled')) = (reason IS NOT NULL)),
  CHECK ((state = 'paid') = (entry_id IS NOT NULL))
);
CREATE INDEX invite_rewards_inviter_idx ON invite_rewards (inviter_id, id DESC);
CREATE INDEX invite_rewards_hold_idx ON invite_rewards (payable_on, inviter_id) WHERE state = 'on_hold';
CREATE INDEX invite_rewards_friend_hold_idx ON invite_rewards (friend_id) WHERE state = 'on_hold';
CREATE INDEX invite_rewards_entry_idx ON invite_rewards (entry_id) WHERE entry_id IS NOT NULL;

-- Each day accrued once (the run's terms recorded), and when its payable rewards could not be
-- paid because the fees account was short (staff alerted once).
CREATE TABLE invite_days (
  day             date          PRIMARY KEY,
  share_bps       integer       NOT NULL,
  daily_cap_minor numeric(78,0) NOT NULL,
  enabled         boolean       NOT NULL,
  rewards         integer       NOT NULL,
  accrued_at      timestamptz   NOT NULL,
  unfunded_alert  bigint
);

-- One payout: one `referral` entry per inviter and reward day.
CREATE TABLE invite_payouts (
  inviter_id bigint      NOT NULL,
  day        date        NOT NULL,
  entry_id   bigint      NOT NULL UNIQUE REFERENCES ledger_entries (id),
  paid_at    timestamptz NOT NULL,
  PRIMARY KEY (inviter_id, day)
);
CREATE INDEX invite_payouts_day_idx ON invite_payouts (day DESC, inviter_id);

-- The programme's terms, system parameters staff change (audited), public: stated before anyone
-- invites anybody. A change applies from `invites.effectiveFrom`; the days before it keep
-- `invites.previous` (share|cap|enabled).
INSERT INTO system_params (key, value, is_public, description) VALUES
  ('invites.shareBps', '2000', true, 'Invite friends: the inviter''s share of the fees collected from a friend, in basis points'),
  ('invites.dailyCapUsdt', '100', true, 'Invite friends: most an inviter is paid a day per asset, in USDT value'),
  ('invites.enabled', 'true', true, 'Invite friends: rewards accrue'),
  ('invites.effectiveFrom', '2000-01-01', false, 'Invite friends: the day the terms apply from'),
  ('invites.previous', '2000|100|true', false, 'Invite friends: the terms before effectiveFrom')
ON CONFLICT (key) DO NOTHING;

-- A day's ledger entries are found by their time (the fees of a day, deposits reversed that day):
-- a BRIN index, a few pages for the whole journal and next to nothing per write, since entries
-- are appended in time order.
CREATE INDEX ledger_entries_created_brin ON ledger_entries USING brin (created_at);
