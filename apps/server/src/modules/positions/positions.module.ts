import type { Clock } from '../../platform/clock.ts';
import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { QuoteFeed } from '../market/quote-feed.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import { TriggerEngine } from './positions.engine.ts';
import { marginReconciliationJob } from './positions.jobs.ts';
import { positionsRoutes } from './positions.routes.ts';
import { PositionsService } from './positions.service.ts';

/** Leveraged positions with stop loss and take profit; the trigger engine closes them on ticks. */
export const positionsModule = defineModule({
  name: 'positions',
  create: (
    platform,
    deps: {
      audit: AuditService;
      ledger: LedgerService;
      market: MarketService;
      feed: QuoteFeed;
      notices: NoticesService;
      clock: Clock;
    },
  ) => {
    const positions = new PositionsService({
      db: platform.db,
      ledger: deps.ledger,
      market: deps.market,
      bus: platform.bus,
      notices: deps.notices,
      logger: platform.logger,
      now: deps.clock.now,
      leverageCaps: platform.config.leverageCaps,
      quoteKeys: platform.keys.purpose('quotes'),
    });
    const triggers = new TriggerEngine({
      trading: positions,
      db: platform.db,
      bus: platform.bus,
      logger: platform.logger,
    });
    // The node that leads the quote feed also runs the trigger engine, on the same ticks.
    deps.feed.onLeaderTick((t) => triggers.tick(t));
    return { positions, triggers };
  },
  routes: (server, { positions }) => positionsRoutes(server, positions),
  jobs: ({ positions, ledger, audit }) => [marginReconciliationJob(positions, ledger, audit)],
  prepare: ({ triggers }) => triggers.start(),
  stop: ({ triggers }) => triggers.stop(),
});
