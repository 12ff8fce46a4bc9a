import type { Clock } from '../../platform/clock.ts';
import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { NoticesService } from '../notices/notices.service.ts';
import type { PositionDesk } from '../products/ports.ts';
import { subLedgerReconciliationJob } from '../products/reconciliation.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { smartRoutes } from './smart.routes.ts';
import { SmartService, smartBacktestJob, smartIncomeJob, smartLiveJob } from './smart.service.ts';

type Needs = {
  clock: Clock;
  audit: AuditService;
  ledger: LedgerService;
  notices: NoticesService;
  staff: StaffService;
  /** The positions module, through the kit's port. */
  positions: PositionDesk;
};

/** Smart plans: live book, trading real positions from the customer's smart account. */
export const smartModule = defineModule({
  name: 'smart',
  create: (platform, deps: Needs) => ({
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
  routes: (server, { smart, staff }) => smartRoutes(server, smart, staff),
  // Every minute the live runner steps each plan through the minutes completed; the daily income
  // records each plan's complete days; each product's backtest is computed once a day; a daily
  // check of the smart accounts.
  jobs: ({ smart, ledger, audit }) => [
    smartLiveJob(smart),
    smartIncomeJob(smart),
    smartBacktestJob(smart),
    subLedgerReconciliationJob(smart.subLedger(), ledger, audit),
  ],
});
