-- A withdrawal address added from the customer's self-custody wallet with a signature (EIP-191)
-- by the address's own key: proved to be the customer's. The signature itself is kept too, so
-- the proof can be checked again later by anyone (it reveals nothing secret).
ALTER TABLE wallet_addresses ADD COLUMN ownership_signature text;
