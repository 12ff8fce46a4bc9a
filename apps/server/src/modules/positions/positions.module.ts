import type { MarketService } from '../market/market.service.ts';
import type { QuoteFeed } from '../market/quote-feed.ts';
import type { TickWatcher } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { PENDING } from './pending.quote.ts';
import { TriggerEngine } from './positions.engine.ts';
import { marginSubLedger, pendingOrdersJob } from './positions.jobs.ts';
import { OPENING } from './positions.quote.ts';
import { positionsRoutes } from './positions.routes.ts';
import { PositionsService } from './positions.service.ts';

/** Leveraged positions with stop loss and take profit; the trigger engine closes them on ticks. */
export const positionsModule = defineProduct({
  name: 'positions',
  create: (
    platform,
    deps: ProductNeeds<{ market: MarketService; feed: QuoteFeed; tickWatcher: TickWatcher }>,
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
      // The price alerts are evaluated on the engine's ticks, after its triggers.
      watcher: deps.tickWatcher,
    });
    // The node that leads the quote feed also runs the trigger engine, on the same ticks.
    deps.feed.onLeaderTick((t) => triggers.tick(t));
    return { positions, triggers };
  },
  quotes: [OPENING, PENDING],
  notices: [
    'position_take_profit',
    'position_stop_loss',
    'position_stop_out',
    'position_expiry',
    'position_trailing_stop',
    'pending_filled',
    'pending_filled_gapped',
    'pending_expired',
    'pending_rejected_insufficient_funds',
    'pending_rejected_unreasonable_stops',
    'pending_rejected_market_closed',
  ],
  routes: (server, { positions }) => positionsRoutes(server, positions),
  // Every customer's margin account against the margins of their open positions.
  subLedgers: ({ positions }) => [marginSubLedger(positions)],
  // Every minute: pending orders expired, stalled fills completed, holds released.
  jobs: ({ positions }) => [pendingOrdersJob(positions)],
  prepare: async ({ triggers }) => triggers.start(),
  stop: ({ triggers }) => triggers.stop(),
});
