import type { Book, Language, OptionsOrder, TicketBody } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { CodedError } from '../../platform/http.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { MarketService } from '../market/market.service.ts';
import type { TradingService } from './trading.service.ts';

/** What the trading database tests build on: the audit log, the ledger with its system accounts, the catalogue. */
export async function tradingParts(
  db: Database,
  now: () => number,
): Promise<{ audit: AuditService; ledger: LedgerService; market: MarketService }> {
  const audit = new AuditService(db);
  const ledger = new LedgerService(db, audit);
  await ledger.ensureSystemAccounts();
  const market = new MarketService(db, now);
  await market.load();
  return { audit, ledger, market };
}

/** A customer row (no books yet) named `userName`; its id. */
export async function insertCustomer(db: Queryable, userName: string): Promise<number> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO users (user_name, password_hash) VALUES ($1, '$argon2id$test') RETURNING id`,
    [userName],
  );
  return Number(row?.id);
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

/** Quote, then commit: previews a ticket for the customer at the service's tick and opens it at that quote. */
export function placeOrder(
  trading: TradingService,
  userId: number,
  body: TicketBody,
  requestId: string,
  options: { book?: Book; language?: Language } = {},
): Promise<OptionsOrder> {
  const book = options.book ?? 'demo';
  const { quoteId } = trading.preview(body, { customerId: userId, book });
  return trading.open(userId, book, options.language ?? 'en', { ...body, quoteId, requestId });
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
