/** A production run's own keys: its master secret, its deposit keys (the BIP-84 test mnemonic's here). */
export const OWN_XPUBS = {
  MASTER_KEY: '5e'.repeat(32),
  DEPOSIT_XPUB_EVM:
    'xpub6EF8jXqFeFEW5bwMU7RpQtHkzE4KJxcqJtvkCjJumzW8CPpacXkb92ek4WzLQXjL93HycJwTPUAcuNxCqFPKKU5m5Z2Vq4nCyh5CyPeBFFr',
  DEPOSIT_XPUB_BTC:
    'xpub6FPnz8nd9KHwrramFPiKretTQ6o7o7JdjjjuVgm9ByvK69i9sfZsTgHSr59PqHcg5E4CmCDbpZ1azNws6XaVNs4Tc9cUwgKQqZmUBoK3xUt',
};
