-- A charity payout really sent on the chain (modules/nft/nft.payouts.ts through the wallet's port
-- `ChainPayout`, products/ports.ts).
--
-- nft_payouts: proposed → approved (charity → pending_withdrawals) → sending (handed to the hot
-- wallet, its transaction hash kept once known) → sent (mined at the network's confirmations:
-- pending_withdrawals → external_clearing, the payout's leaf appended to the donation log in the
-- same transaction) or failed (refused or reverted: pending_withdrawals → charity, the money back
-- on the charity account, with the reason).
ALTER TABLE nft_payouts DROP CONSTRAINT nft_payouts_state_check;
ALTER TABLE nft_payouts ADD CONSTRAINT nft_payouts_state_check
  CHECK (state IN ('proposed', 'approved', 'sending', 'sent', 'failed', 'rejected'));
ALTER TABLE nft_payouts ADD COLUMN done_entry_id bigint;
ALTER TABLE nft_payouts ADD COLUMN done_at timestamptz;
ALTER TABLE nft_payouts ADD CONSTRAINT nft_payouts_tx_hash CHECK (tx_hash IS NULL OR tx_hash ~ '^0x[0-9a-f]{64}$');
ALTER TABLE nft_payouts ADD CONSTRAINT nft_payouts_sent CHECK (
  state <> 'sent' OR (tx_hash IS NOT NULL AND log_index IS NOT NULL AND done_entry_id IS NOT NULL));
CREATE INDEX nft_payouts_open ON nft_payouts (id) WHERE state IN ('approved', 'sending');

-- wallet_hot_sends (modules/wallet, wallet.payouts.ts): what another module asks the hot wallet to
-- send (port `ChainPayout`), once per key. The transaction is signed with a nonce of
-- wallet_hot_nonces (shared with withdrawals: no two transactions share a nonce) and stored here
-- BEFORE it is broadcast, so a crash or a second node broadcasts the same transaction again,
-- never a second one.
CREATE TABLE wallet_hot_sends (
  key        text          PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 120),
  chain_id   bigint        NOT NULL,
  asset      text          NOT NULL,
  to_address text          NOT NULL CHECK (to_address ~ '^0x[0-9a-f]{40}$'),
  amount     numeric(78,0) NOT NULL CHECK (amount > 0),
  nonce      integer       NOT NULL CHECK (nonce >= 0),
  raw_tx     text          NOT NULL,
  tx_hash    text          NOT NULL UNIQUE CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  sent_block bigint,
  created_at timestamptz   NOT NULL
);
