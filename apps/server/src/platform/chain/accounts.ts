/**
 * The development chains' accounts: the published development mnemonic (anvil's and Hardhat's
 * default), but its BIP-44 account 1 (m/44'/60'/1'/0/i), which the embedded anvil funds
 * (`--derivation-path`). Account 0 (m/44'/60'/0'/0/i) is the sandbox's deposit key
 * (DEV_DEPOSIT_XPUB_EVM): customers' deposit addresses must never be one of these funded accounts,
 * or the faucet's genesis balance and every mint would look like a customer's deposit.
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEV_DERIVATION_PATH = "m/44'/60'/1'/0/";
/** anvil's default chain id. */
export const DEV_CHAIN_ID = 31337;
/** What every development account holds at genesis, in ether (anvil's --balance). */
export const DEV_BALANCE_ETH = 10_000;

/**
 * The roles, by index under DEV_DERIVATION_PATH, with their keys written out (public knowledge:
 * the mnemonic is published; deriving them costs a server start a few hundred milliseconds of
 * elliptic-curve set-up). accounts.test.ts derives them again from the mnemonic.
 */
export const DEV_ACCOUNTS = {
  /** Deploys the test token (nonce 0) and is its only minter. */
  deployer: {
    index: 0,
    address: '0x8c8d35429f74ec245f8ef2f4fd1e551cff97d650',
    privateKey: '0x7797c0f3db8b946604ec2039dfd9763e4ffdc53174342a2ed9b14fa3eda666a5',
  },
  /** Sends the operator's and the tests' deposits (`DevelopmentChain.send`). */
  faucet: {
    index: 1,
    address: '0x40fbbe484b8ee6139af08446950b088e10b2306a',
    privateKey: '0xf85f544c4904b1c1bbacb64b10fbcc22ccf496f490d74e0f277017d00914eb54',
  },
  /** Pays withdrawals (the development `WithdrawalSigner`). */
  hotWallet: {
    index: 2,
    address: '0x2b382887d362ccae885a421c978c7e998d3c95a6',
    privateKey: '0x729d91ef8a9b770a6e74cb88ef82596d11633c9e6d304c4f1cb3d53b609ced4f',
  },
  /**
   * Holds the charity NFTs and is their contract's owner (mints, sends to buyers): a custody
   * account of its own, so its nonces never race the hot wallet's withdrawals.
   */
  nftCustody: {
    index: 3,
    address: '0x9bf4bee5bfbebb3a4b7060dae40ca6fd49305d60',
    privateKey: '0xf54902bb21ffd37f70ec26442a2b037e204455aefda6cdd0b6391110ca1eabfb',
  },
} as const satisfies Record<string, { index: number; address: `0x${string}`; privateKey: `0x${string}` }>;
export type DevRole = keyof typeof DEV_ACCOUNTS;
