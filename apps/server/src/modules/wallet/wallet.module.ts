import { deriveBtcAddress, deriveEvmAddress, parseExtendedPublicKey } from '../../platform/chain/derive.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type {
  ChainPayout,
  ChainPayoutAssets,
  CustomerAddresses,
  PayInAddress,
  WithdrawalAddressBook,
} from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { depositReview, withdrawalReview } from './wallet.review.ts';
import { walletRoutes } from './wallet.routes.ts';
import { WalletJob, WalletService } from './wallet.service.ts';
import { WITHDRAWAL } from './wallet.shared.ts';

/** Deposits and withdrawals on real chains, the address book, and their staff queues. */
export const walletModule = defineProduct({
  name: 'wallet',
  create: (platform, deps: ProductNeeds<{ customers: CustomerDirectory; identity: IdentityService }>) => {
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
      // Every time the wallet writes (deposits, withdrawals, the address book) is the service's clock.
      now: deps.clock.now,
      logger: platform.logger,
    });
    // The customer's pay-in address for a purchase by proof: their USDT deposit address.
    const payIn: PayInAddress = (userId) =>
      wallet.deposits.address('live', userId, 'USDT-EVM').catch(() => null);
    // The addresses that tie customers together (withdrawal, deposit senders, deposit), for invites' same-person rule.
    const customerAddresses: CustomerAddresses = (userIds) => wallet.knownAddresses(userIds);
    // The address book with each address's lock, for sending NFTs under the withdrawal rules.
    const withdrawalAddressBook: WithdrawalAddressBook = (userId) =>
      wallet.withdrawals.addresses('live', userId);
    // The hot wallet's sends for another product (the NFT charity payouts), once per key.
    const chainPayout: ChainPayout = (key, order) => wallet.payouts.send(key, order);
    const chainPayoutAssets: ChainPayoutAssets = () => wallet.payouts.assets();
    return {
      wallet,
      payIn,
      customerAddresses,
      withdrawalAddressBook,
      chainPayout,
      chainPayoutAssets,
      walletWatcher: new WalletJob(wallet, platform.config.walletPollMs, platform.logger),
    };
  },
  quotes: [WITHDRAWAL],
  notices: [
    'deposit_credited',
    'deposit_available',
    'deposit_reversed',
    'deposit_below_minimum',
    'deposit_approved',
    'deposit_rejected',
    'deposit_proof_closed',
    'withdrawal_approved',
    'withdrawal_rejected',
    'withdrawal_completed',
    'withdrawal_failed',
  ],
  // A refusal, money not credited or taken back, a withdrawal not sent: the notice dialog; the rest wait in the list.
  mustReadNotices: [
    'deposit_reversed',
    'deposit_below_minimum',
    'deposit_rejected',
    'withdrawal_rejected',
    'withdrawal_failed',
  ],
  reviews: ({ wallet, ledger, kyc, params }) => ({
    depositReview: depositReview(wallet.deposits, ledger, params),
    withdrawalReview: withdrawalReview(wallet.withdrawals, ledger, kyc, params),
  }),
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
