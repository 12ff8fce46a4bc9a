import { type Base, defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { MarketService } from '../market/market.service.ts';
import { LedgerFacts } from './ledger.facts.ts';
import { reconciliationJob } from './ledger.jobs.ts';
import { ledgerRoutes } from './ledger.routes.ts';
import { LedgerService } from './ledger.service.ts';

/** The double-entry ledger: the only writer of balances; the customer's balances and record. */
export const ledgerModule = defineModule({
  name: 'ledger',
  create: (platform, { audit, clock }: { audit: AuditService; market: MarketService } & Base) => ({
    ledger: new LedgerService(platform.db, audit, platform.logger, {
      maxQueued: platform.config.ledgerMaxQueued,
      now: clock.now,
    }),
    ledgerFacts: new LedgerFacts(platform.db),
  }),
  routes: (server, { ledger, market }) => ledgerRoutes(server, ledger, market),
  jobs: ({ ledger, audit }) => [reconciliationJob(ledger, audit)],
  prepare: ({ ledger }) => ledger.ensureSystemAccounts(),
});
