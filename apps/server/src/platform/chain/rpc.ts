import {
  BlockNotFoundError,
  createPublicClient,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import type { Chain, ChainAsset, ChainBlock, ChainReceipt, ChainTransfer, Hex } from '../chain.ts';

/** The part of ERC-20 the platform uses. */
export const ERC20_ABI = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'function balanceOf(address owner) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
]);
const TRANSFER_EVENT = ERC20_ABI[0];

/** A JSON-RPC client of a node: no caching (each call asks the node), calls of a tick batched. */
export function rpcClient(url: string): PublicClient {
  return createPublicClient({
    transport: http(url, { batch: { batchSize: 200 }, timeout: 30_000 }),
    cacheTime: 0,
  });
}

/** The node answered from two different chains within one call (a reorganisation under it). */
export class ChainMovedError extends Error {}

const lower = (address: string) => address.toLowerCase() as Hex;

/** Sends a signed transaction; one the node knows already (pending, or mined) is no error. */
export async function broadcastRaw(client: PublicClient, raw: Hex): Promise<Hex> {
  const hash = keccak256(raw);
  try {
    return await client.sendRawTransaction({ serializedTransaction: raw });
  } catch (error) {
    // Sent before: the node says "already known" (pending) or "nonce too low" (mined).
    const known = await client.getTransaction({ hash }).catch((lookup: unknown) => {
      if (lookup instanceof TransactionNotFoundError) return null;
      throw lookup;
    });
    if (known) return hash;
    throw error;
  }
}

/** The platform's Chain over any node's JSON-RPC (anvil, or a real node). */
export class RpcChain implements Chain {
  readonly kind: Chain['kind'];
  readonly chainId: number;
  readonly tokens: { USDT: Hex };
  readonly blockSeconds: number;
  readonly client: PublicClient;
  private readonly onClose: () => Promise<void>;

  constructor(options: {
    kind: Chain['kind'];
    chainId: number;
    tokens: { USDT: Hex };
    blockSeconds: number;
    client: PublicClient;
    close: () => Promise<void>;
  }) {
    this.kind = options.kind;
    this.chainId = options.chainId;
    this.tokens = options.tokens;
    this.blockSeconds = options.blockSeconds;
    this.client = options.client;
    this.onClose = options.close;
  }

  head(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async block(number: bigint): Promise<ChainBlock | null> {
    try {
      const block = await this.client.getBlock({ blockNumber: number });
      return { number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
    } catch (error) {
      if (error instanceof BlockNotFoundError) return null;
      throw error;
    }
  }

  /**
   * The token's Transfer logs of the range in one getLogs, and the native transfers of the blocks'
   * transactions (a value, a recipient, a successful receipt; value moved by contracts internally is
   * not seen). Every log must come from the block fetched at its height, else the chain moved
   * during the call: asked again, up to three times.
   */
  async transfers(from: bigint, to: bigint): Promise<ChainTransfer[]> {
    if (to < from) return [];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transfersOnce(from, to);
      } catch (error) {
        if (!(error instanceof ChainMovedError) || attempt >= 3) throw error;
      }
    }
  }

  private async transfersOnce(from: bigint, to: bigint): Promise<ChainTransfer[]> {
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const [blocks, logs] = await Promise.all([
      Promise.all(
        numbers.map((blockNumber) => this.client.getBlock({ blockNumber, includeTransactions: true })),
      ),
      this.client.getLogs({ address: this.tokens.USDT, event: TRANSFER_EVENT, fromBlock: from, toBlock: to }),
    ]);
    const hashes = new Map(blocks.map((block) => [block.number, block.hash]));
    const found: (ChainTransfer & { order: number })[] = [];
    for (const log of logs) {
      if (log.removed || log.blockNumber === null || log.blockHash === null) continue;
      if (hashes.get(log.blockNumber) !== log.blockHash) throw new ChainMovedError('logs of another chain');
      const { from: sender, to: recipient, value } = log.args;
      if (sender === undefined || recipient === undefined || value === undefined) continue;
      found.push({
        asset: 'USDT',
        txHash: log.transactionHash,
        logIndex: log.logIndex,
        from: lower(sender),
        to: lower(recipient),
        amount: value,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        order: log.transactionIndex * 2 + 1,
      });
    }
    const candidates = blocks.flatMap((block) =>
      block.transactions.filter((tx) => tx.value > 0n && tx.to !== null).map((tx) => ({ block, tx })),
    );
    const receipts = await Promise.all(
      candidates.map(({ tx }) => this.client.getTransactionReceipt({ hash: tx.hash })),
    );
    candidates.forEach(({ block, tx }, i) => {
      const receipt = receipts[i];
      if (!receipt || receipt.blockHash !== block.hash)
        throw new ChainMovedError('a receipt of another chain');
      if (receipt.status !== 'success' || tx.to === null) return;
      found.push({
        asset: 'ETH',
        txHash: tx.hash,
        logIndex: -1,
        from: lower(tx.from),
        to: lower(tx.to),
        amount: tx.value,
        blockNumber: block.number,
        blockHash: block.hash,
        order: receipt.transactionIndex * 2,
      });
    });
    found.sort((a, b) =>
      a.blockNumber !== b.blockNumber
        ? Number(a.blockNumber - b.blockNumber)
        : a.order !== b.order
          ? a.order - b.order
          : a.logIndex - b.logIndex,
    );
    return found.map(({ order: _, ...transfer }) => transfer);
  }

  balanceOf(address: Hex, asset: ChainAsset, block?: bigint): Promise<bigint> {
    const at = block === undefined ? {} : { blockNumber: block };
    if (asset === 'ETH') return this.client.getBalance({ address, ...at });
    return this.client.readContract({
      address: this.tokens.USDT,
      abi: ERC20_ABI,
      functionName: 'balanceOf',
      args: [address],
      ...at,
    });
  }

  broadcast(raw: Hex): Promise<Hex> {
    return broadcastRaw(this.client, raw);
  }

  async receipt(txHash: Hex): Promise<ChainReceipt | null> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash: txHash });
      return {
        status: receipt.status,
        blockNumber: receipt.blockNumber,
        blockHash: receipt.blockHash,
        fee: receipt.gasUsed * receipt.effectiveGasPrice,
      };
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return null;
      throw error;
    }
  }

  nonce(address: Hex): Promise<number> {
    return this.client.getTransactionCount({ address, blockTag: 'pending' });
  }

  minedNonce(address: Hex, block: bigint): Promise<number> {
    return this.client.getTransactionCount({ address, blockNumber: block });
  }

  async call(to: Hex, data: Hex): Promise<Hex> {
    return (await this.client.call({ to, data })).data ?? '0x';
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
