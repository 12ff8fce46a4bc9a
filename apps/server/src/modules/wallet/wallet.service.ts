import { type ChainBalance, Code, NETWORK_ASSETS, type TreasuryRow } from '@swx/contract';
import type { Chain, ChainAsset, Hex, WithdrawalSigner } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { KnownAddresses } from '../products/ports.ts';
import { fundedDepositAddresses } from './wallet.deposits.repository.ts';
import { type AddressDeriver, type DepositDeps, Deposits } from './wallet.deposits.ts';
import { decimal, Networks } from './wallet.networks.ts';
import { pendingHotSendsByAsset } from './wallet.payouts.repository.ts';
import { HotPayouts } from './wallet.payouts.ts';
import { outgoingByAsset } from './wallet.withdrawals.repository.ts';
import { type WithdrawalDeps, Withdrawals } from './wallet.withdrawals.ts';

export type { AddressDeriver };

export type WalletDeps = Omit<DepositDeps, 'networks'> &
  Omit<WithdrawalDeps, 'networks'> & { signer: WithdrawalSigner | null; logger?: Logger };

/**
 * Money in and out of the live book (spec §1, §3, §5, §7; DESIGN §3 Chain): networks as data,
 * deposits (wallet.deposits.ts), withdrawals and the address book (wallet.withdrawals.ts), their
 * staff reviews (wallet.review.ts) and the job that follows the chain (`tick`).
 */
export class WalletService {
  readonly networks: Networks;
  readonly deposits: Deposits;
  readonly withdrawals: Withdrawals;
  /** The hot wallet's sends for other products (port `ChainPayout`). */
  readonly payouts: HotPayouts;
  private readonly deps: WalletDeps;

  constructor(deps: WalletDeps) {
    this.deps = deps;
    // A signer of the hot wallet is what sends (it exists only beside a chain the platform follows).
    this.networks = new Networks(deps.db, deps.audit, deps.signer !== null, deps.now ?? Date.now);
    this.deposits = new Deposits({ ...deps, networks: this.networks });
    this.withdrawals = new Withdrawals({ ...deps, networks: this.networks });
    this.payouts = new HotPayouts({ ...deps, networks: this.networks, now: deps.now ?? Date.now });
  }

  get chain(): Chain | null {
    return this.deps.chain;
  }

  /**
   * One pass of the wallet job: read new blocks and move deposits on, send approved withdrawals,
   * follow sent ones. Each step is keyed, so passes on several nodes, or after a crash, repeat
   * nothing.
   */
  async tick(): Promise<void> {
    if (!this.deps.chain) return;
    await this.deposits.watch();
    await this.withdrawals.send();
    await this.withdrawals.confirm();
  }

  /**
   * What the platform's chain holds at a public address (a self-custody wallet's), read-only:
   * native ETH and the USDT token, both read at the head block it names (never two blocks apart).
   * Without a chain: `available: false`. A chain that does not answer is 10031.
   */
  async chainBalance(address: Hex): Promise<ChainBalance> {
    const { chain } = this.deps;
    if (!chain) return { available: false, block: null, balances: [] };
    try {
      const block = await chain.head();
      const [eth, usdt] = await Promise.all([
        chain.balanceOf(address, 'ETH', block),
        chain.balanceOf(address, 'USDT', block),
      ]);
      return {
        available: true,
        block: block.toString(),
        balances: [
          { asset: 'ETH', amount: decimal({ asset: 'ETH' }, eth) },
          { asset: 'USDT', amount: decimal({ asset: 'USDT' }, usdt) },
        ],
      };
    } catch (error) {
      this.deps.logger?.warn({ err: error }, 'chain balance read failed');
      throw new ApiError(Code.SERVICE_UNAVAILABLE);
    }
  }

  /**
   * Staff: the hot wallet's balance on chain beside what sits at customers' deposit addresses (never
   * swept), customers' live balances and what is on its way out: withdrawals approved or sent and
   * the hot wallet's sends for other products (charity payouts) not yet confirmed.
   */
  async treasury(): Promise<TreasuryRow[]> {
    const { chain, signer, ledger, db } = this.deps;
    const [liabilities, withdrawing, sending, addresses] = await Promise.all([
      ledger.customerTotals('live'),
      outgoingByAsset(db),
      pendingHotSendsByAsset(db),
      chain ? fundedDepositAddresses(db, 'evm') : Promise.resolve([]),
    ]);
    return Promise.all(
      NETWORK_ASSETS.map(async (asset) => {
        const readable = chain !== null && (asset === 'USDT' || asset === 'ETH');
        const hotOnChain = readable && signer !== null;
        const [hot, deposited] = await Promise.all([
          hotOnChain ? chain.balanceOf(signer.address, asset).catch(() => null) : null,
          readable ? sumAt(chain, addresses as Hex[], asset) : null,
        ]);
        return {
          asset,
          hotWallet: hot === null ? null : decimal({ asset }, hot),
          hotWalletAddress: hotOnChain ? signer.address : null,
          depositAddresses: deposited === null ? null : decimal({ asset }, deposited),
          depositAddressCount: readable ? addresses.length : 0,
          liabilities: decimal({ asset }, liabilities.get(asset) ?? 0n),
          outgoing: decimal({ asset }, (withdrawing.get(asset) ?? 0n) + (sending.get(asset) ?? 0n)),
        };
      }),
    );
  }

  /**
   * Per customer, in lowercase: the withdrawal addresses they named (removed ones too), the senders
   * of their deposits seen on chain and their own deposit addresses (the port `CustomerAddresses`).
   */
  async knownAddresses(userIds: readonly number[]): Promise<Map<number, KnownAddresses>> {
    const [named, deposited] = await Promise.all([
      this.withdrawals.addressesOfOwners(userIds),
      this.deposits.addressesOfOwners(userIds),
    ]);
    return new Map(
      userIds.map((id) => [
        id,
        {
          withdrawal: named.get(id) ?? [],
          depositSources: deposited.get(id)?.sources ?? [],
          deposit: deposited.get(id)?.own ?? [],
        },
      ]),
    );
  }
}

/** How many balances the treasury reads from the node at once. */
const READS_AT_ONCE = 8;

/** The sum of an asset at these addresses on chain; null when the node does not answer. */
async function sumAt(chain: Chain, addresses: Hex[], asset: ChainAsset): Promise<bigint | null> {
  let total = 0n;
  try {
    for (let i = 0; i < addresses.length; i += READS_AT_ONCE) {
      const batch = addresses.slice(i, i + READS_AT_ONCE);
      for (const balance of await Promise.all(batch.map((a) => chain.balanceOf(a, asset)))) total += balance;
    }
  } catch {
    return null;
  }
  return total;
}

/**
 * Runs `tick` every `intervalMs` on this node, never two at once; a failing pass is logged and the
 * next one runs as usual.
 */
export class WalletJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly wallet: WalletService;
  private readonly intervalMs: number;
  private readonly logger: Logger | undefined;

  constructor(wallet: WalletService, intervalMs: number, logger?: Logger) {
    this.wallet = wallet;
    this.intervalMs = intervalMs;
    this.logger = logger;
  }

  start(): void {
    if (this.timer || !this.wallet.chain) return;
    this.timer = setInterval(() => void this.pass(), this.intervalMs);
    this.timer.unref();
  }

  /** One pass now (or the one under way). */
  pass(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.wallet
      .tick()
      .catch((error: unknown) => this.logger?.warn({ err: error }, 'wallet pass failed'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
