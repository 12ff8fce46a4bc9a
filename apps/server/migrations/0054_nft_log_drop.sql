-- The donation log read by drop (modules/nft/log: `leavesPage` with a drop): a drop's leaves,
-- newest first, found through this index instead of paging through the whole log. Payouts have no
-- drop and are not in it.
CREATE INDEX nft_donation_log_drop ON nft_donation_log (drop_id, seq) WHERE drop_id IS NOT NULL;
