-- The hot wallet's unmined transactions replaced at a higher fee, its gas booked, a stuck payout
-- shown as such (modules/wallet/wallet.hot.ts, wallet.payouts.ts, modules/nft/nft.payouts.send.ts).
--
-- A transaction of the hot wallet (a withdrawal, or a send for another product) unmined for some
-- blocks is signed again with the SAME nonce at a higher fee and stored before it is broadcast:
-- `tx_hash`/`raw_tx` are the newest, `replaced` the earlier hashes of that nonce (any one of them
-- may be the one mined, never two), `bumps` how many replacements, `bumped_block` the head at the
-- last one.
ALTER TABLE wallet_hot_sends ADD COLUMN replaced text[] NOT NULL DEFAULT '{}';
ALTER TABLE wallet_hot_sends ADD COLUMN bumps integer NOT NULL DEFAULT 0 CHECK (bumps >= 0);
ALTER TABLE wallet_hot_sends ADD COLUMN bumped_block bigint;
-- pending until mined at the confirmations (confirmed, reverted: its gas booked once,
-- `hot-send:<key>:gas`) or its nonce taken by another transaction (dropped); the treasury counts
-- the pending ones as money on its way out.
ALTER TABLE wallet_hot_sends ADD COLUMN state text NOT NULL DEFAULT 'pending'
  CHECK (state IN ('pending', 'confirmed', 'reverted', 'dropped'));
CREATE INDEX wallet_hot_sends_pending ON wallet_hot_sends (asset) WHERE state = 'pending';

ALTER TABLE wallet_withdrawals ADD COLUMN replaced text[] NOT NULL DEFAULT '{}';
ALTER TABLE wallet_withdrawals ADD COLUMN bumps integer NOT NULL DEFAULT 0 CHECK (bumps >= 0);
ALTER TABLE wallet_withdrawals ADD COLUMN bumped_block bigint;

-- A payout whose transaction stays unmined long after its last replacement, its nonce still
-- unused: `stuck`, left for staff (still followed: mined, it is sent); never failed while its
-- nonce may yet be mined.
ALTER TABLE nft_payouts DROP CONSTRAINT nft_payouts_state_check;
ALTER TABLE nft_payouts ADD CONSTRAINT nft_payouts_state_check
  CHECK (state IN ('proposed', 'approved', 'sending', 'stuck', 'sent', 'failed', 'rejected'));
DROP INDEX nft_payouts_open;
CREATE INDEX nft_payouts_open ON nft_payouts (id) WHERE state IN ('approved', 'sending', 'stuck');
