import type { MarketService } from '../market/market.service.ts';
import type { PayInAddress } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { marketBasketRate } from './earn.basket.ts';
import { earnReturnsJob } from './earn.jobs.ts';
import { earnProofReview } from './earn.review.ts';
import { earnRoutes } from './earn.routes.ts';
import { EarnService } from './earn.service.ts';
import { PURCHASE, REDEMPTION } from './earn.shared.ts';

/** Earn: fund and VIP products with daily settlement, bought from the balance or by proof. */
export const earnModule = defineProduct({
  name: 'earn',
  create: (platform, deps: ProductNeeds<{ market: MarketService; payIn: PayInAddress }>) => ({
    earn: new EarnService({
      db: platform.db,
      ledger: deps.ledger,
      audit: deps.audit,
      notices: deps.notices,
      kyc: deps.kyc,
      uploads: deps.uploads,
      payIn: deps.payIn,
      basketRate: marketBasketRate(deps.market),
      quoteKeys: platform.keys.purpose('quotes'),
      logger: platform.logger,
      now: deps.clock.now,
    }),
  }),
  quotes: [PURCHASE, REDEMPTION],
  notices: [
    'earn_matured',
    'earn_proof_approved',
    'earn_proof_rejected',
    'earn_income',
    'earn_paused',
    'earn_resumed',
  ],
  // A refused proof opens the notice dialog; every other earn notice waits in the list.
  mustReadNotices: ['earn_proof_rejected'],
  reviews: ({ earn, ledger, params, payIn, clock }) => ({
    earnProofReview: earnProofReview(
      earn,
      ledger,
      params,
      async (userId) => (await payIn(userId))?.address ?? null,
      clock.now,
    ),
  }),
  routes: (server, s) => earnRoutes(server, s.earn, s.staff, s.earnProofReview),
  // Each day: rates published, every product's due days settled, matured principal paid back.
  settle: async ({ earn }, runner) =>
    (await earn.runDaily(runner)).map((u) => `${u.product} ${u.book} ${u.day}`),
  // Every minute, refused proofs' promises back to their reserve.
  jobs: ({ earn }) => [earnReturnsJob(earn)],
});
