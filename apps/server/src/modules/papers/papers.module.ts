import type { Book } from '@swx/contract';
import type { Clock } from '../../platform/clock.ts';
import { defineModule } from '../../platform/module.ts';
import type { EarnService } from '../earn/earn.service.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { LedgerFacts } from '../ledger/ledger.facts.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { LoansService } from '../loans/loans.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';
import type { SmartService } from '../smart/smart.service.ts';
import { productHoldings } from './papers.holdings.ts';
import type { Obligation, ObligationsReader } from './papers.obligations.ts';
import { papersRoutes } from './papers.routes.ts';
import { PapersService } from './papers.service.ts';

/**
 * The obligations calendar's reader: the live book's loans due, earn maturities and plan ends, and
 * the demo book's earn maturities (loans and plans are live only), each with its book.
 */
export function productObligations(p: {
  loans: LoansService;
  earn: EarnService;
  smart: SmartService;
}): ObligationsReader {
  return async (userId) => {
    const [loans, investments, demoInvestments, plans] = await Promise.all([
      p.loans.loans('live', userId, 'repaying'),
      p.earn.investments('live', userId, { status: 'in_progress' }),
      p.earn.investments('demo', userId, { status: 'in_progress' }),
      p.smart.list('live', userId, 'in_progress'),
    ]);
    // What each product names: its id, product name, asset and amount.
    const of = (book: Book, x: { id: number; productName: string; asset: string }, amount: string) => ({
      book,
      id: x.id,
      product: x.productName,
      asset: x.asset,
      amount,
    });
    const maturities = (book: Book, list: typeof investments) =>
      list.flatMap((i): Obligation[] =>
        i.expiryTime ? [{ kind: 'earnMaturity', ...of(book, i, i.amount), at: i.expiryTime }] : [],
      );
    return [
      ...loans.flatMap((l): Obligation[] =>
        l.dueDate ? [{ kind: 'loanDue', ...of('live', l, l.totalPayable), day: l.dueDate }] : [],
      ),
      ...maturities('live', investments),
      ...plans.map((s): Obligation => ({ kind: 'planEnd', ...of('live', s, s.amount), at: s.endTime })),
      ...maturities('demo', demoInvestments),
    ];
  };
}

/**
 * Papers a customer keeps (composition: it reads the ledger and the products): statements, the
 * tax export and the obligations calendar. On the 1st of each month (module clock) the job
 * `papers.monthly` records the month before's statements.
 */
export const papersModule = defineModule({
  name: 'papers',
  create: (
    platform,
    needs: {
      ledger: LedgerService;
      ledgerFacts: LedgerFacts;
      customers: CustomerDirectory;
      loans: LoansService;
      earn: EarnService;
      smart: SmartService;
      positions: PositionsService;
      clock: Clock;
    },
  ) => ({
    papers: new PapersService({
      db: platform.db,
      ledger: needs.ledger,
      facts: needs.ledgerFacts,
      customers: needs.customers,
      obligations: productObligations(needs),
      holdings: productHoldings(needs),
      now: needs.clock.now,
    }),
  }),
  routes: (server, { papers }) => papersRoutes(server, papers),
  jobs: ({ papers, clock }) => [
    {
      name: 'papers.monthly',
      everyMs: 60_000,
      runKey: (now: Date) => now.toISOString().slice(0, 7),
      leaseMs: 60 * 60_000,
      run: async ({ logger }) => {
        const made = await papers.monthly(new Date(clock.now()));
        logger.info({ statements: made }, 'monthly statements recorded');
      },
    },
  ],
});
