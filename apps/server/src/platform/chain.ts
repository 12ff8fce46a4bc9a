/**
 * The EVM chain the platform watches for deposits and sends withdrawals on: infrastructure, no
 * business rules. `openChain` (platform/chain/open.ts) picks one of three from the configuration:
 *
 * - embedded (the default): a development chain (anvil from the npm registry) started by this
 *   process, its state kept in DATA_DIR/chain, with the test USDT token (ERC-20, 6 decimals)
 *   deployed; the hot wallet is one of its funded development accounts.
 * - development (CHAIN_DEV_RPC_URL): such a chain started by someone else (tests sharing one chain
 *   between several nodes); still a sandbox.
 * - external (EVM_RPC_URL and EVM_TOKEN_USDT): a real node; a production run. Withdrawals are
 *   signed by a signer outside the server's configuration.
 */

export type Hex = `0x${string}`;

/** Assets that move on the EVM chain: the USDT token and the chain's native coin. */
export const CHAIN_ASSETS = ['USDT', 'ETH'] as const;
export type ChainAsset = (typeof CHAIN_ASSETS)[number];

export type ChainBlock = { number: bigint; hash: Hex; parentHash: Hex; timestamp: bigint };

/**
 * A movement of value to an address: an ERC-20 `Transfer` log of a known token (its `logIndex`),
 * or a native transfer (`logIndex` -1, one per transaction with a value and a recipient).
 * Addresses are lowercase.
 */
export type ChainTransfer = {
  asset: ChainAsset;
  txHash: Hex;
  logIndex: number;
  from: Hex;
  to: Hex;
  amount: bigint;
  blockNumber: bigint;
  blockHash: Hex;
};

/** A mined transaction: `fee` is what its sender paid for gas (gas used × effective price, wei). */
export type ChainReceipt = {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  blockHash: Hex;
  fee: bigint;
};

export interface Chain {
  readonly kind: 'embedded' | 'development' | 'external';
  readonly chainId: number;
  /** The token contracts by asset (lowercase addresses). */
  readonly tokens: { USDT: Hex };
  /** Seconds between blocks as configured (the embedded chain's interval; a real chain's average). */
  readonly blockSeconds: number;
  head(): Promise<bigint>;
  /** The block at `number` of the current canonical chain, or null above the head. */
  block(number: bigint): Promise<ChainBlock | null>;
  /** Every transfer of a known token and every native transfer in blocks `from`..`to` inclusive. */
  transfers(from: bigint, to: bigint): Promise<ChainTransfer[]>;
  /** The balance at the head, or at block `block` (proof of assets reads every address at one block). */
  balanceOf(address: Hex, asset: ChainAsset, block?: bigint): Promise<bigint>;
  /** Sends a signed raw transaction; answers its hash (a transaction already known is not an error). */
  broadcast(raw: Hex): Promise<Hex>;
  /** The receipt of a mined transaction on the canonical chain, or null while it is not mined. */
  receipt(txHash: Hex): Promise<ChainReceipt | null>;
  /** The next nonce of an address counting pending transactions. */
  nonce(address: Hex): Promise<number>;
  /** How many transactions of an address are mined up to block `block` (its next nonce there). */
  minedNonce(address: Hex, block: bigint): Promise<number>;
  /** A read-only call (eth_call) at the head: the answer's bytes ('0x' from an address without code); a revert throws. */
  call(to: Hex, data: Hex): Promise<Hex>;
  close(): Promise<void>;
}

/** The EIP-1559 fee fields of a transaction (wei per gas). */
export type TxFees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/**
 * A transfer to be signed: the hot wallet's nonce is chosen by the caller (kept in the database);
 * `fees` only when it replaces an unmined one of that nonce at a higher fee (else the signer's).
 */
export type TransferToSign = { asset: ChainAsset; to: Hex; amount: bigint; nonce: number; fees?: TxFees };

/**
 * Signs withdrawals. Embedded and development chains: the hot wallet is a development account;
 * production plugs in a signer that holds its key elsewhere (no production key in the config).
 */
export interface WithdrawalSigner {
  readonly address: Hex;
  /** A signed raw transaction and its hash: the same input signs to the same transaction. */
  sign(transfer: TransferToSign): Promise<{ raw: Hex; hash: Hex }>;
}

/** A contract call to be signed (a mint, an NFT transfer): no value; the caller picks gas limit and nonce. */
export type CallToSign = { to: Hex; data: Hex; gas: bigint; nonce: number };

/**
 * Signs contract calls as one account (the NFT custody account): the same call signs to the same
 * transaction. Development chains: a development account; a real chain has none configured yet.
 */
export interface CallSigner {
  readonly address: Hex;
  signCall(call: CallToSign): Promise<{ raw: Hex; hash: Hex }>;
}

/** What only a development chain can do: the operator's test deposit and the tests' reorgs. */
export interface DevelopmentChain {
  /** Sends `amount` minor units of `asset` from a funded development account; answers the hash. */
  send(input: { to: Hex; asset: ChainAsset; amount: bigint }): Promise<Hex>;
  mine(blocks: number): Promise<void>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
}
