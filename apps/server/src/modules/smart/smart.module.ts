import type { PositionDesk } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { SMART } from './smart.quote.ts';
import { smartRoutes } from './smart.routes.ts';
import { SmartService, smartBacktestJob, smartIncomeJob, smartLiveJob } from './smart.service.ts';

/** Smart plans: live book, trading real positions from the customer's smart account. */
export const smartModule = defineProduct({
  name: 'smart',
  // The positions module, through the kit's port.
  create: (platform, deps: ProductNeeds<{ positions: PositionDesk }>) => ({
    smart: new SmartService({
      db: platform.db,
      ledger: deps.ledger,
      trading: deps.positions,
      audit: deps.audit,
      notices: deps.notices,
      quoteKeys: platform.keys.purpose('quotes'),
      logger: platform.logger,
      now: deps.clock.now,
    }),
  }),
  quotes: [SMART],
  notices: ['smart_income', 'smart_ended', 'smart_drawdown_stop'],
  routes: (server, { smart, staff }) => smartRoutes(server, smart, staff),
  // Every minute the live runner steps each plan through the minutes completed; the daily income
  // records each plan's complete days; each product's backtest is computed once a day.
  jobs: ({ smart }) => [smartLiveJob(smart), smartIncomeJob(smart), smartBacktestJob(smart)],
  // The smart accounts against the plans' principal and results.
  subLedgers: ({ smart }) => [smart.subLedger()],
});
