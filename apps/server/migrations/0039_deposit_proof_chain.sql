-- A deposit proof on a network the platform watches is checked against the chain before staff can
-- approve it; once approved it follows the watcher's path (modules/wallet/wallet.deposits.ts): it
-- keeps the block its transaction was mined in, is credited with a lock and unlocked at the
-- network's depth, and is moved or reversed when that block is replaced. So a declared deposit may
-- now carry a block; a deposit seen on chain still always does.
ALTER TABLE wallet_deposits DROP CONSTRAINT wallet_deposits_check;
ALTER TABLE wallet_deposits ADD CONSTRAINT wallet_deposits_chain_block_check
  CHECK (source = 'proof' OR block_number IS NOT NULL);
ALTER TABLE wallet_deposits ADD CONSTRAINT wallet_deposits_block_pair_check
  CHECK ((block_number IS NULL) = (block_hash IS NULL));

-- Finds the proofs of a transaction (a pending proof is closed when the watcher credits its hash).
CREATE INDEX wallet_deposits_tx_idx ON wallet_deposits (tx_hash);
