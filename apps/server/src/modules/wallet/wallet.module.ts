import { deriveBtcAddress, deriveEvmAddress, parseExtendedPublicKey } from '../../platform/chain/derive.ts';
import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { ParamsService } from '../params/params.service.ts';
import type { PayInAddress } from '../products/ports.ts';
import type { ReviewService } from '../review/review.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { depositReview, withdrawalReview } from './wallet.review.ts';
import { walletRoutes } from './wallet.routes.ts';
import { WalletJob, WalletService } from './wallet.service.ts';

type Needs = {
  audit: AuditService;
  ledger: LedgerService;
  notices: NoticesService;
  uploads: UploadsService;
  customers: CustomerDirectory;
  identity: IdentityService;
  kyc: KycService;
  params: ParamsService;
  reviews: ReviewService;
  staff: StaffService;
};

/** Deposits and withdrawals on real chains, the address book, and their staff queues. */
export const walletModule = defineModule({
  name: 'wallet',
  create: (platform, deps: Needs) => {
    const evmKey = parseExtendedPublicKey(platform.config.depositXpubs.evm);
    const bitcoinKey = parseExtendedPublicKey(platform.config.depositXpubs.btc);
    const wallet = new WalletService({
      db: platform.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      uploads: deps.uploads,
      customers: deps.customers,
      identity: deps.identity,
      kyc: deps.kyc,
      params: deps.params,
      derive: {
        evm: (index) => deriveEvmAddress(evmKey, index),
        bitcoin: (index) => deriveBtcAddress(bitcoinKey, index),
      },
      chain: platform.chain?.chain ?? null,
      signer: platform.chain?.signer ?? null,
      quoteKeys: platform.keys.purpose('quotes'),
      logger: platform.logger,
    });
    // The customer's pay-in address for a purchase by proof: their USDT deposit address.
    const payIn: PayInAddress = (userId) =>
      wallet.deposits.address('live', userId, 'USDT-EVM').catch(() => null);
    return {
      wallet,
      payIn,
      walletWatcher: new WalletJob(wallet, platform.config.walletPollMs, platform.logger),
      depositReview: deps.reviews.register(depositReview(wallet.deposits, deps.ledger, deps.params)),
      withdrawalReview: deps.reviews.register(
        withdrawalReview(wallet.withdrawals, deps.ledger, deps.kyc, deps.params),
      ),
    };
  },
  routes: (server, s) =>
    walletRoutes(server, s.wallet, s.staff, { deposits: s.depositReview, withdrawals: s.withdrawalReview }),
  prepare: async ({ wallet }, platform) => {
    // A development chain's blocks come at its own interval: the networks' waiting times follow it.
    const chain = platform.chain?.chain;
    if (chain && chain.kind !== 'external' && chain.blockSeconds >= 1)
      await wallet.networks.followBlockTime(chain.blockSeconds);
  },
  start: ({ walletWatcher }, platform) => {
    if (platform.config.jobs) walletWatcher.start();
  },
  stop: ({ walletWatcher }) => walletWatcher.stop(),
});
