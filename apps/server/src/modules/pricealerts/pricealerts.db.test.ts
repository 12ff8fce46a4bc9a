import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, PRICE_ALERT_LIMIT, type PriceAlertKind } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import { createMailer, type MailMessage } from '../../platform/mail.ts';
import { createTestContext, recording, type TestContext } from '../../test/context.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { MarketService } from '../market/market.service.ts';
import { AlertDelivery } from './pricealerts.deliver.ts';
import { PriceAlertEngine } from './pricealerts.engine.ts';
import { findAlert } from './pricealerts.repository.ts';
import { alertQuote, PriceAlertsService } from './pricealerts.service.ts';

/**
 * Price alerts against the real database: random price paths drive the engine tick by tick, and
 * every alert must fire exactly once per crossing of its level (a one-off alert at its first
 * crossing only), told once by notice and mail; two engines ("nodes") on one database evaluating
 * the same ticks, one lagging, never deliver a crossing twice. Also the cap of 100 and another
 * customer's cancel.
 */
let t: TestDatabase;
let ctx: TestContext;
let market: MarketService;
const bus = createMemoryBus();
// Wednesday 18 November 2026, 15:00 UTC (crypto trades around the clock).
const START = Date.UTC(2026, 10, 18, 15, 0, 0) / 1000;
let clock = START;
const now = () => clock * 1000;
let alerts: PriceAlertsService;
const mail: MailMessage[] = [];

function node(): { engine: PriceAlertEngine; delivery: AlertDelivery } {
  const delivery = new AlertDelivery({
    notices: ctx.notices,
    customers: new CustomerDirectory(t.db),
    mailer: recording(
      createMailer({ from: 'alerts@swx.test', dataDir: mkdtempSync(join(tmpdir(), 'swx-pa-')) }),
      mail,
    ),
    db: t.db,
    vapid: null,
    publicUrl: 'https://swx.test',
  });
  return { engine: new PriceAlertEngine({ alerts, delivery, bus }), delivery };
}

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now });
  market = new MarketService(t.db, now);
  await market.load();
  alerts = new PriceAlertsService({ db: t.db, market, bus, vapid: null, now });
});
afterAll(() => t.close());

type Spec = { kind: PriceAlertKind; offset: number; repeat: boolean };
type Tick = { bid: number; spread: number; change: number };

/** What an alert's condition is at a tick: the bid at or above, the ask at or below, |change| at or over. */
function holds(spec: Spec, level: number, q: { bid: number; ask: number; changeBp: number }): boolean {
  if (spec.kind === 'above') return q.bid >= level;
  if (spec.kind === 'below') return q.ask <= level;
  return Math.abs(q.changeBp) >= level;
}

/** The firings a path owes an alert: each tick where the condition starts to hold (once, unless repeating). */
function owed(
  spec: Spec,
  level: number,
  start: { bid: number; ask: number; changeBp: number },
  path: Tick[],
): number {
  let before = holds(spec, level, start);
  let fires = 0;
  for (const tick of path) {
    const now = holds(spec, level, { bid: tick.bid, ask: tick.bid + tick.spread, changeBp: tick.change });
    if (now && !before) fires += 1;
    before = now;
  }
  return spec.repeat ? fires : Math.min(fires, 1);
}

const specs = fc.array(
  fc.record({
    kind: fc.constantFrom<PriceAlertKind>('above', 'below', 'move_pct'),
    offset: fc.integer({ min: -6, max: 6 }),
    repeat: fc.boolean(),
  }),
  { minLength: 1, maxLength: 8 },
);
const paths = fc.array(
  fc.record({
    bid: fc.integer({ min: -8, max: 8 }),
    spread: fc.integer({ min: 1, max: 3 }),
    change: fc.integer({ min: -8, max: 8 }),
  }),
  { minLength: 1, maxLength: 40 },
);

/**
 * Sets the alerts at the current second (levels around the market's price then, in ticks), then
 * drives the path (bids relative to that price, changes relative to 200 bp) through `drive`.
 */
async function run(
  specList: Spec[],
  rawPath: Tick[],
  engines: PriceAlertEngine[],
  drive: (tick: number, bid: number, ask: number, change: number) => Promise<void>,
): Promise<{ ids: number[]; owedList: number[]; userId: number }> {
  const btc = market.instrument('BTCUSDT');
  if (!btc) throw new Error('BTCUSDT not listed');
  clock += 10_000;
  const q0 = alertQuote(market, btc.id, clock);
  if (!q0) throw new Error('BTCUSDT not priced');
  const user = await ctx.customer();
  const base = 200;
  const path = rawPath.map((p) => ({ bid: q0.bid + p.bid, spread: p.spread, change: base + p.change * 10 }));
  const ids: number[] = [];
  const owedList: number[] = [];
  for (const spec of specList) {
    const move = spec.kind === 'move_pct';
    const level = move ? Math.max(1, base + spec.offset * 10) : q0.bid + spec.offset;
    const view = await alerts.create(user.id, {
      code: 'BTCUSDT',
      kind: spec.kind,
      ...(move
        ? { percent: (level / 100).toFixed(2) }
        : { level: (level / 10 ** btc.decimals).toFixed(btc.decimals) }),
      repeat: spec.repeat,
    });
    ids.push(view.id);
    // The move alerts' start is the change at creation (the market's), the levels' the quote then.
    owedList.push(owed(spec, level, q0, path));
  }
  for (const engine of engines) await engine.reload();
  for (const [i, p] of path.entries()) await drive(clock + 1 + i, p.bid, p.bid + p.spread, p.change);
  return { ids, owedList, userId: user.id };
}

/** Cancels what a run left active, so the next run's path meets only its own alerts. */
async function cleanup(userId: number, ids: number[], engines: PriceAlertEngine[]): Promise<void> {
  for (const id of ids) if ((await findAlert(t.db, id))?.state === 'active') await alerts.cancel(userId, id);
  for (const engine of engines) await engine.reload();
}

describe(`price alerts on ${TEST_DB}`, () => {
  it('fires every alert exactly once per crossing over random price paths (one-off alerts once)', async () => {
    const { engine, delivery } = node();
    const rearmedBefore = 0;
    const btcId = market.instrument('BTCUSDT')?.id as number;
    await fc.assert(
      fc.asyncProperty(specs, paths, async (specList, path) => {
        const before = delivery.sent.notices;
        const mailsBefore = mail.length;
        const { ids, owedList, userId } = await run(specList, path, [engine], (tick, bid, ask, change) =>
          engine.evaluate(tick, btcId, bid, ask, change),
        );
        const fired = await Promise.all(ids.map(async (id) => (await findAlert(t.db, id))?.fireCount));
        expect(fired).toEqual(owedList);
        const total = owedList.reduce((a, b) => a + b, 0);
        expect(delivery.sent.notices - before).toBe(total);
        expect(mail.length - mailsBefore).toBe(total);
        for (const [i, id] of ids.entries()) {
          const row = await findAlert(t.db, id);
          if (!row?.repeat && owedList[i] === 1) expect(row?.state).toBe('fired');
        }
        await cleanup(userId, ids, [engine]);
      }),
      { numRuns: 30 },
    );
    // The paths crossed levels both ways: alerts fired, and repeating ones re-armed.
    expect(delivery.sent.notices).toBeGreaterThan(10);
    expect(engine.stats.rearmed).toBeGreaterThan(rearmedBefore);
  });

  it('two engines on one database, one lagging, deliver each crossing once', async () => {
    const a = node();
    const b = node();
    const btcId = market.instrument('BTCUSDT')?.id as number;
    await fc.assert(
      fc.asyncProperty(specs, paths, fc.integer({ min: 0, max: 4 }), async (specList, path, lag) => {
        const sent = () => a.delivery.sent.notices + b.delivery.sent.notices;
        const before = sent();
        const backlog: [number, number, number, number][] = [];
        const { ids, owedList, userId } = await run(
          specList,
          path,
          [a.engine, b.engine],
          async (tick, bid, ask, change) => {
            backlog.push([tick, bid, ask, change]);
            const behind = backlog.length > lag ? backlog.shift() : undefined;
            await Promise.all([
              a.engine.evaluate(tick, btcId, bid, ask, change),
              behind ? b.engine.evaluate(behind[0], btcId, behind[1], behind[2], behind[3]) : null,
            ]);
          },
        );
        for (const late of backlog) await b.engine.evaluate(late[0], btcId, late[1], late[2], late[3]);
        const fired = await Promise.all(ids.map(async (id) => (await findAlert(t.db, id))?.fireCount));
        expect(fired).toEqual(owedList);
        expect(sent() - before).toBe(owedList.reduce((x, y) => x + y, 0));
        await cleanup(userId, ids, [a.engine, b.engine]);
      }),
      { numRuns: 20 },
    );
    // The lagging node met crossings the other had claimed first.
    expect(b.engine.stats.refused + a.engine.stats.refused).toBeGreaterThan(0);
  });

  it('keeps at most 100 active alerts per customer; a cancelled one makes room', async () => {
    const user = await ctx.customer();
    const body = { code: 'BTCUSDT', kind: 'move_pct' as const, percent: '5', repeat: false };
    const made = [];
    for (let i = 0; i < PRICE_ALERT_LIMIT; i++) made.push(await alerts.create(user.id, body));
    await expect(alerts.create(user.id, body)).rejects.toMatchObject({ code: Code.PRICE_ALERT_LIMIT });
    await alerts.cancel(user.id, made[0]?.id as number);
    await expect(alerts.create(user.id, body)).resolves.toMatchObject({ state: 'active' });
    const list = await alerts.list(user.id);
    expect(list.active).toBe(PRICE_ALERT_LIMIT);
    expect(list.items.filter((item) => item.state === 'cancelled')).toHaveLength(1);
  });

  it("changes nothing when a customer cancels another customer's alert", async () => {
    const owner = await ctx.customer();
    const other = await ctx.customer();
    const alert = await alerts.create(owner.id, {
      code: 'ETHUSDT',
      kind: 'above',
      level: '999999',
      repeat: true,
    });
    await expect(alerts.cancel(other.id, alert.id)).rejects.toMatchObject({ code: Code.NOT_FOUND });
    expect((await findAlert(t.db, alert.id))?.state).toBe('active');
    expect((await alerts.list(other.id)).items).toEqual([]);
    await expect(alerts.cancel(owner.id, alert.id)).resolves.toBeNull();
    await expect(alerts.cancel(owner.id, alert.id)).rejects.toMatchObject({ code: Code.NOT_FOUND });
  });

  it('refuses a level with more decimals than the instrument has, and a move without a percentage', async () => {
    const user = await ctx.customer();
    await expect(
      alerts.create(user.id, { code: 'BTCUSDT', kind: 'above', level: '1.0000001', repeat: false }),
    ).rejects.toMatchObject({ code: Code.INVALID_INPUT });
    await expect(
      alerts.create(user.id, { code: 'BTCUSDT', kind: 'move_pct', repeat: false }),
    ).rejects.toMatchObject({
      code: Code.INVALID_INPUT,
    });
    await expect(
      alerts.create(user.id, { code: 'NOPE', kind: 'above', level: '1', repeat: false }),
    ).rejects.toMatchObject({ code: Code.NOT_FOUND });
  });
});
