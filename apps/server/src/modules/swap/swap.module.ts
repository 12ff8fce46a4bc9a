import type { Clock } from '../../platform/clock.ts';
import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { swapRoutes } from './swap.routes.ts';
import { SwapService } from './swap.service.ts';

/** Currency swap: quotes priced from the market, committed as one ledger entry. */
export const swapModule = defineModule({
  name: 'swap',
  create: (
    platform,
    deps: {
      clock: Clock;
      audit: AuditService;
      ledger: LedgerService;
      market: MarketService;
      staff: StaffService;
    },
  ) => ({
    swap: new SwapService({
      db: platform.db,
      ledger: deps.ledger,
      market: deps.market,
      audit: deps.audit,
      quoteKeys: platform.keys.purpose('quotes'),
      now: deps.clock.now,
    }),
  }),
  routes: (server, { swap, staff }) => swapRoutes(server, swap, staff),
});
