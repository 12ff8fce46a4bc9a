import type { Database } from '../../platform/db.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import { MarketService } from '../market/market.service.ts';

/**
 * What the trading database tests build on: the test context (audit log, ledger with its system
 * accounts, identity to register customers) and the catalogue on the test's clock.
 */
export async function tradingParts(
  db: Database,
  now: () => number,
): Promise<{ audit: AuditService; ledger: LedgerService; market: MarketService; ctx: TestContext }> {
  const ctx = await createTestContext(db);
  const market = new MarketService(db, now);
  await market.load();
  return { audit: ctx.audit, ledger: ctx.ledger, market, ctx };
}

/** A long of 0.10 lot at 2× with stops at 90,000.00 and 120,000.00 (BTCUSDT trades around 100,000). */
export const longTicket = (marketId: number) => ({
  marketId,
  direction: 'long' as const,
  lots: '0.10',
  leverage: 2,
  stopLoss: '90000.00',
  takeProfit: '120000.00',
  autoCloseAfter: null,
});
