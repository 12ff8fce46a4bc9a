import type { Book, Language, Position, TicketBody } from '@swx/contract';
import { createMemoryBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import { CodedError } from '../../platform/http.ts';
import { createTestContext, openPosition, type TestContext } from '../../test/context.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import { MarketService } from '../market/market.service.ts';
import type { TickQuote } from '../market/pricing.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { TriggerEngine } from './positions.engine.ts';
import { PositionsService } from './positions.service.ts';

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

/**
 * A scripted BTCUSDT path: the mid of each second (ticks of 0.01) from `path()`, else the last one
 * set in the 2,000 seconds before (before a path starts: the flat 100,000.00); 2.00 each side.
 */
export function scriptedBtc(path: () => Map<number, bigint>, spread = 200n) {
  return (instrument: Instrument, second: number): TickQuote => {
    if (instrument.code !== 'BTCUSDT') throw new Error(`no scripted price for ${instrument.code}`);
    const mids = path();
    let mid = mids.get(second);
    for (let back = second; mid === undefined && back > second - 2000; back--) mid = mids.get(back);
    mid ??= 10_000_000n;
    return { mid, bid: mid - spread, ask: mid + spread };
  };
}

/**
 * A random price path for a property: the mid flat at 100,000.00 (ticks of 0.01) for the ten
 * seconds up to t0, then one move a second from t0 + 1, never below `floor`.
 */
export function walkFrom(t0: number, moves: readonly number[], floor: bigint): Map<number, bigint> {
  const walk = new Map<number, bigint>();
  for (let at = t0 - 10; at <= t0; at++) walk.set(at, 10_000_000n);
  let mid = 10_000_000n;
  for (const [i, move] of moves.entries()) {
    mid = mid + BigInt(move) > floor ? mid + BigInt(move) : floor;
    walk.set(t0 + 1 + i, mid);
  }
  return walk;
}

/** `positionsParts` with trading on a scripted quote and its trigger engine started, ticks driven by hand. */
export async function scriptedPositions(
  db: Database,
  now: () => number,
  quote: (instrument: Instrument, second: number) => TickQuote,
) {
  const parts = await positionsParts(db, now);
  const notices = new NoticesService(db);
  const bus = createMemoryBus();
  const trading = new PositionsService({
    db,
    ledger: parts.ledger,
    market: parts.market,
    bus,
    notices,
    now,
    quote,
  });
  const engine = new TriggerEngine({ trading, db, bus });
  await engine.start();
  return { ...parts, notices, bus, trading, engine };
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
