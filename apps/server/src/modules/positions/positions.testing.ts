import type { Book, Language, Position, TicketBody } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import { CodedError } from '../../platform/http.ts';
import { createTestContext, openPosition, type TestContext } from '../../test/context.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import { MarketService } from '../market/market.service.ts';
import type { PositionsService } from './positions.service.ts';

/**
 * What the trading database tests build on: the test context (audit log, ledger with its system
 * accounts, identity to register customers) and the catalogue on the test's clock.
 */
export async function positionsParts(
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

/** Quote, then commit under a named request id: {@link openPosition} for the customer `userId`. */
export function placeOrder(
  trading: PositionsService,
  userId: number,
  body: TicketBody,
  requestId: string,
  options: { book?: Book; language?: Language } = {},
): Promise<Position> {
  return openPosition(trading, { id: userId }, body, { ...options, requestId });
}

/** The catalogue code and data a refusal answers (an ApiError, or a ledger refusal by its mapping). */
export async function refusal(
  run: Promise<unknown> | (() => unknown),
): Promise<{ code: number; data: unknown }> {
  try {
    await (typeof run === 'function' ? run() : run);
  } catch (error) {
    if (error instanceof CodedError && error.apiCode !== null)
      return { code: error.apiCode, data: error.apiData };
    throw error;
  }
  throw new Error('expected a refusal');
}
