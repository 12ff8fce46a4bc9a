import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomerDirectory } from '../modules/identity/identity.customers.ts';
import { KycService } from '../modules/kyc/kyc.service.ts';
import { ParamsService } from '../modules/params/params.service.ts';
import { type ReviewQueue, ReviewService } from '../modules/review/review.service.ts';
import { UploadsService } from '../modules/uploads/uploads.service.ts';
import { depositReview, withdrawalReview } from '../modules/wallet/wallet.review.ts';
import { WalletService } from '../modules/wallet/wallet.service.ts';
import {
  DEV_DEPOSIT_XPUB_BTC,
  DEV_DEPOSIT_XPUB_EVM,
  deriveBtcAddress,
  deriveEvmAddress,
} from '../platform/chain/derive.ts';
import type { Chain, WithdrawalSigner } from '../platform/chain.ts';
import { KeyRing } from '../platform/keys.ts';
import type { Logger } from '../platform/logger.ts';
import { FileStorage } from '../platform/storage.ts';
import type { TestContext } from './context.ts';

export type TestWallet = {
  wallet: WalletService;
  uploads: UploadsService;
  params: ParamsService;
  kyc: KycService;
  deposits: ReviewQueue<ReturnType<typeof depositReview>['calls']>;
  withdrawals: ReviewQueue<ReturnType<typeof withdrawalReview>['calls']>;
};

/**
 * The wallet module on a test context's services, as app.ts builds it: deposit addresses from the
 * development extended public keys, the chain and signer given (a real development chain), the
 * deposit and withdrawal review queues registered.
 */
export function testWallet(
  ctx: TestContext,
  options: {
    chain?: Chain | null;
    signer?: WithdrawalSigner | null;
    now?: () => number;
    logger?: Logger;
  } = {},
): TestWallet {
  const customers = new CustomerDirectory(ctx.db);
  const uploads = new UploadsService({
    db: ctx.db,
    storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-wallet-'))),
  });
  const kyc = new KycService({ db: ctx.db, uploads, audit: ctx.audit, customers });
  const params = new ParamsService(ctx.db);
  const wallet = new WalletService({
    db: ctx.db,
    ledger: ctx.ledger,
    audit: ctx.audit,
    notices: ctx.notices,
    uploads,
    customers,
    identity: ctx.identity,
    kyc,
    params,
    derive: {
      evm: (index) => deriveEvmAddress(DEV_DEPOSIT_XPUB_EVM, index),
      bitcoin: (index) => deriveBtcAddress(DEV_DEPOSIT_XPUB_BTC, index),
    },
    chain: options.chain ?? null,
    signer: options.signer ?? null,
    quoteKeys: new KeyRing(Buffer.alloc(32, 7)).purpose('quotes'),
    now: options.now ?? ctx.now,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const reviews = new ReviewService({
    db: ctx.db,
    audit: ctx.audit,
    notices: ctx.notices,
    staff: ctx.staff,
    customers,
    ledger: ctx.ledger,
    now: options.now ?? ctx.now,
  });
  return {
    wallet,
    uploads,
    params,
    kyc,
    deposits: reviews.register(depositReview(wallet.deposits, ctx.ledger, params)),
    withdrawals: reviews.register(withdrawalReview(wallet.withdrawals, ctx.ledger, kyc, params)),
  };
}
