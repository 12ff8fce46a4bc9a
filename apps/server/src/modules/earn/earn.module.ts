import { defineModule } from '../../platform/module.ts';
import type { MarketService } from '../market/market.service.ts';
import type { PayInAddress, ProductBase } from '../products/ports.ts';
import { SettlementRunner } from '../products/settlement.ts';
import { marketBasketRate } from './earn.basket.ts';
import { earnProofReview } from './earn.review.ts';
import { earnRoutes } from './earn.routes.ts';
import { EarnService, earnDailyJob, earnReturnsJob } from './earn.service.ts';

type Needs = ProductBase & { market: MarketService; payIn: PayInAddress };

/** Earn: fund and VIP products with daily settlement, bought from the balance or by proof. */
export const earnModule = defineModule({
  name: 'earn',
  create: (platform, deps: Needs) => {
    const earn = new EarnService({
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
    });
    const payInAddress = async (userId: number) => (await deps.payIn(userId))?.address ?? null;
    return {
      earn,
      earnProofReview: deps.reviews.register(
        earnProofReview(earn, deps.ledger, deps.params, payInAddress, deps.clock.now),
      ),
    };
  },
  routes: (server, s) => earnRoutes(server, s.earn, s.staff, s.earnProofReview),
  // The daily settlement (on the runner's clock) and, every minute, refused proofs' promises back
  // to their reserve.
  jobs: ({ earn, ledger, audit, clock }, platform) => [
    earnReturnsJob(earn),
    earnDailyJob(
      earn,
      new SettlementRunner({ db: platform.db, ledger, audit, now: clock.now, logger: platform.logger }),
    ),
  ],
});
