import type { Position } from '@swx/contract';
import { expect } from 'vitest';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import { reconcileMargins } from './positions.jobs.ts';
import type { PositionsService } from './positions.service.ts';

/* The equity rules a trading database test checks after a random path (pending orders' property). */

type EquityParts = { ledger: LedgerService; trading: PositionsService; audit: AuditService };
const minor = (text: string) => BigInt(text.replace('.', ''));

/**
 * The equity rules of a customer's book (as positions.db.test.ts states them): what the margin
 * account holds is the sum of the open positions' margins (`reconcileMargins` for every customer),
 * what the wallet holds is the sum of the open orders' holds, and no customer account is below zero.
 */
export async function expectEquity(s: EquityParts, user: number): Promise<void> {
  const [usdt] = (await s.ledger.heldBalances('demo', user)).filter((b) => b.asset === 'USDT');
  const heldFor = (reason: string) => usdt?.heldBy.find((h) => h.reason === reason)?.amount ?? 0n;
  const positions = (await s.trading.list(user, 'demo', {})).items.filter((p) => p.status === 'open');
  expect(heldFor('margin')).toBe(positions.reduce((sum, p) => sum + minor(p.margin), 0n));
  const orders = (await s.trading.listPending(user, 'demo', { status: 'open', size: 100 })).items;
  expect(heldFor('other')).toBe(orders.reduce((sum, o) => sum + minor(o.held), 0n));
  expect(await reconcileMargins(s.trading, s.ledger, s.audit)).toEqual([]);
  expect((await s.ledger.invariants()).negativeCustomers).toEqual([]);
}

/**
 * A closed position's outcome as the positions' own tests define it: closed at or beyond the level
 * its reason names (stop loss, take profit, stop-out), and never losing more than its margin (the
 * house absorbs the rest: negative balance protection). Answers its fee and its result.
 */
export function expectClosedWithinMargin(p: Position): Position & { result: bigint } {
  expect(p.status).toBe('closed');
  const long = p.direction === 'long';
  const at = minor(p.closePrice as string);
  const beyond = (level: string, falling: boolean) => (falling ? at <= minor(level) : at >= minor(level));
  if (p.closeReason === 'stop_loss') expect(beyond(p.stopLoss, long)).toBe(true);
  if (p.closeReason === 'take_profit') expect(beyond(p.takeProfit, !long)).toBe(true);
  if (p.closeReason === 'stop_out') expect(beyond(p.liquidationPrice, long)).toBe(true);
  const absorbed = minor(p.absorbed);
  const result = minor(p.profit) + absorbed;
  expect(absorbed >= 0n).toBe(true);
  expect(result >= -minor(p.margin)).toBe(true);
  if (absorbed > 0n) expect(result).toBe(-minor(p.margin));
  return { ...p, result };
}
