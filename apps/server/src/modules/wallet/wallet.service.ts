import { type ChainBalance, Code, NETWORK_ASSETS } from '@swx/contract';
import type { Chain, ChainAsset, Hex, WithdrawalSigner } from '../../platform/chain.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import { type AddressDeriver, type DepositDeps, Deposits } from './wallet.deposits.ts';
import { decimal, Networks } from './wallet.networks.ts';
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
  private readonly deps: WalletDeps;

  constructor(deps: WalletDeps) {
    this.deps = deps;
    this.networks = new Networks(deps.db, deps.audit);
    this.deposits = new Deposits({ ...deps, networks: this.networks });
    this.withdrawals = new Withdrawals({ ...deps, networks: this.networks });
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
   * native ETH and the USDT token at the head block. Without a chain: `available: false`. A chain
   * that does not answer is 10031.
   */
  async chainBalance(address: Hex): Promise<ChainBalance> {
    const { chain } = this.deps;
    if (!chain) return { available: false, block: null, balances: [] };
    try {
      const [block, eth, usdt] = await Promise.all([
        chain.head(),
        chain.balanceOf(address, 'ETH'),
        chain.balanceOf(address, 'USDT'),
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

  /** Staff: the hot wallet's balance on chain beside customers' live balances and outgoing withdrawals. */
  async treasury() {
    const { chain, signer, ledger } = this.deps;
    const [liabilities, outgoing] = await Promise.all([
      ledger.customerTotals('live'),
      outgoingByAsset(this.deps.db),
    ]);
    return Promise.all(
      NETWORK_ASSETS.map(async (asset) => {
        const onChain = chain && signer && (asset === 'USDT' || asset === 'ETH');
        const hot = onChain
          ? await chain.balanceOf(signer.address, asset as ChainAsset).catch(() => null)
          : null;
        return {
          asset,
          hotWallet: hot === null ? null : decimal({ asset }, hot),
          hotWalletAddress: onChain ? signer.address : null,
          liabilities: decimal({ asset }, liabilities.get(asset) ?? 0n),
          outgoing: decimal({ asset }, outgoing.get(asset) ?? 0n),
        };
      }),
    );
  }
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
