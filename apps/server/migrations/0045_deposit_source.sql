-- The sender of each deposit the chain watcher sees (modules/wallet/wallet.watch.ts): the
-- transfer's `from`, in lowercase. A declared deposit (proof) and the deposits seen before this
-- migration have none (null). Invites compares it with the inviter's and friend's other addresses
-- (the same-address rule).
ALTER TABLE wallet_deposits ADD COLUMN sender text;

-- Invites (modules/invites): a fee given back by a reversal. `fee_reversed` is the part of a
-- reward's `fee` that reversals gave back since (its figures recomputed while it is on hold);
-- `clawback`, on a paid reward, what it paid above the share of its fee net of reversals, carried
-- to the link's next rewards in the asset; `withheld`, on a later reward, the part of its share
-- kept back to settle that carry (never below zero).
ALTER TABLE invite_rewards
  ADD COLUMN fee_reversed numeric(78,0) NOT NULL DEFAULT 0 CHECK (fee_reversed >= 0),
  ADD COLUMN clawback     numeric(78,0) NOT NULL DEFAULT 0 CHECK (clawback >= 0),
  ADD COLUMN withheld     numeric(78,0) NOT NULL DEFAULT 0 CHECK (withheld >= 0),
  ADD CONSTRAINT invite_rewards_reversed_within_fee CHECK (fee_reversed <= fee);
CREATE INDEX invite_rewards_link_asset_idx ON invite_rewards (link_id, asset) WHERE clawback > 0 OR withheld > 0;

-- A reward with nothing left to pay (all of its share kept back for the carry, or all of its fee
-- reversed while it was on hold) is settled as paid when payable, without an entry.
ALTER TABLE invite_rewards DROP CONSTRAINT invite_rewards_check1,
  ADD CONSTRAINT invite_rewards_paid_entry CHECK (
    (state = 'paid') = (entry_id IS NOT NULL) OR (state = 'paid' AND amount = 0 AND rebate = 0));
