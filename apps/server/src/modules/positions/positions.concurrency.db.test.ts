import { Code } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  openTestPool,
  TEST_DB,
  type TestDatabase,
} from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import { CodedError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createTestContext } from '../../test/context.ts';
import { AuditService } from '../audit/audit.service.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import type { Instrument } from '../market/feed.ts';
import { MarketService } from '../market/market.service.ts';
import { PositionsService } from './positions.service.ts';

/**
 * Several nodes placing orders against one customer's margin at once: on PostgreSQL each node has
 * its own pool, ledger batcher and trading service, so only the database keeps the balance whole.
 */
let t: TestDatabase;
const pools: Database[] = [];
let nodes: { ledger: LedgerService; trading: PositionsService }[] = [];
const NOW = Date.UTC(2026, 10, 18, 15, 0, 0);

beforeAll(async () => {
  t = await openTestDatabase();
  const dbs: Database[] = [t.db];
  if (t.url) for (let i = 0; i < 3; i++) pools.push(await openTestPool(t.url));
  dbs.push(...pools);
  const list = t.url ? dbs : [t.db, t.db, t.db, t.db];
  // The nodes share the quote key (derived from TOTP_KEY in a real deployment).
  const quoteKeys = KeyRing.random().purpose('quotes');
  nodes = [];
  for (const db of list) {
    const ledger = new LedgerService(db, new AuditService(db));
    const market = new MarketService(db, () => NOW);
    await market.load();
    const flat = (instrument: Instrument) => {
      if (instrument.code !== 'BTCUSDT') throw new Error('BTCUSDT only');
      return { mid: 10_000_000n, bid: 9_999_800n, ask: 10_000_200n };
    };
    nodes.push({
      ledger,
      trading: new PositionsService({
        db,
        ledger,
        market,
        bus: createMemoryBus(),
        now: () => NOW,
        quote: flat,
        quoteKeys,
      }),
    });
  }
  await nodes[0]?.ledger.ensureSystemAccounts();
});
afterAll(async () => {
  for (const pool of pools) await pool.close();
  await t.close();
});

describe(`concurrent orders on ${TEST_DB}`, () => {
  it('48 orders at once against 100,000 USDT, each costing 30,060.60: exactly three open, nothing over-commits', async () => {
    const first = nodes[0] as (typeof nodes)[number];
    const ctx = await createTestContext(t.db, { ledger: first.ledger });
    const user = (await ctx.customer({ name: 'concurrent_trader' })).id;
    const btc = (await t.db.query<{ id: number }>(`SELECT id FROM instruments WHERE code = 'BTCUSDT'`))[0]
      ?.id as number;
    const ticket = {
      marketId: btc,
      direction: 'long' as const,
      lots: '0.60',
      leverage: 2,
      stopLoss: '90000.00',
      takeProfit: '110000.00',
      autoCloseAfter: null,
    };
    // 48 quotes from one node, each committed once (48 orders) on every node.
    // 0.60 lot × 100,002.00 = 60,001.20 notional; margin 30,000.60 at 2×; fee 60.0012 → 30,060.6012
    const results = await Promise.allSettled(
      Array.from({ length: 48 }, (_, i) =>
        (nodes[i % nodes.length] as (typeof nodes)[number]).trading.open(user, 'demo', 'en', {
          ...ticket,
          quoteId: first.trading.preview(ticket, { customerId: user, book: 'demo' }).quoteId,
          requestId: `concurrent-${i}`,
        }),
      ),
    );
    const opened = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(opened).toHaveLength(3);
    for (const r of refused)
      expect(r.status === 'rejected' && r.reason instanceof CodedError && r.reason.apiCode).toBe(
        Code.INSUFFICIENT_BALANCE,
      );
    const usdt = (await first.ledger.balances('demo', user)).find((b) => b.asset === 'USDT');
    expect(usdt?.held).toBe(3n * 30_000_600_000n);
    expect(usdt?.available).toBe(100_000_000_000n - 3n * (30_000_600_000n + 60_001_200n));
    expect((usdt?.available ?? -1n) >= 0n).toBe(true);
    const [count] = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM positions WHERE user_id = $1`,
      [user],
    );
    expect(Number(count?.n)).toBe(3);
    await expectLedgerSound(ctx);
  });

  it('one quote committed 24 times at once on every node, under 24 request ids: one position, 23 refused as used', async () => {
    const first = nodes[0] as (typeof nodes)[number];
    const ctx = await createTestContext(t.db, { ledger: first.ledger });
    const user = (await ctx.customer({ name: 'one_quote_trader' })).id;
    const btc = (await t.db.query<{ id: number }>(`SELECT id FROM instruments WHERE code = 'BTCUSDT'`))[0]
      ?.id as number;
    const ticket = {
      marketId: btc,
      direction: 'long' as const,
      lots: '0.01',
      leverage: 2,
      stopLoss: '90000.00',
      takeProfit: '110000.00',
      autoCloseAfter: null,
    };
    // Enough money for every one of the 24: only the quote's single use can stop them.
    const { quoteId } = first.trading.preview(ticket, { customerId: user, book: 'demo' });
    const order = (i: number, node = i) =>
      (nodes[node % nodes.length] as (typeof nodes)[number]).trading.open(user, 'demo', 'en', {
        ...ticket,
        quoteId,
        requestId: `one-quote-${i}`,
      });
    const results = await Promise.allSettled(Array.from({ length: 24 }, (_, i) => order(i)));
    const opened = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, order: r.value }] : []));
    expect(opened).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') {
        expect(r.reason instanceof CodedError && r.reason.apiCode).toBe(Code.PRICE_CHANGED);
        expect((r.reason as CodedError).apiData).toMatchObject({ reason: 'used' });
      }
    const [count] = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM positions WHERE user_id = $1`,
      [user],
    );
    expect(Number(count?.n)).toBe(1);
    // The winning request again, on another node: the same order.
    const winner = opened[0] as { i: number; order: { orderNo: string } };
    expect((await order(winner.i, winner.i + 1)).orderNo).toBe(winner.order.orderNo);
    await expectLedgerSound(ctx);
  });
});
