import { type Asset, formatMinor, interpolate, LANGUAGES, parseMinor, type SwapRecord } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerFacts } from '../ledger/ledger.facts.ts';
import type { Quote } from '../market/feed.ts';
import { MarketService } from '../market/market.service.ts';
import { type PriceSource, simulatedSource } from '../market/source.ts';
import { SwapService } from '../swap/swap.service.ts';
import { PapersService } from './papers.service.ts';
import { TEXT } from './papers.texts.ts';

/**
 * The tax export's swaps on the real swap product and ledger, over two years: BTC deposited (no
 * cost), bought with USDT at two prices, sold for USDT, swapped for ETH (cost carried over), ETH sold;
 * one swap of the year before and one of the year reversed. Every figure of the 2027 file is
 * checked against an average-cost calculation written here from the method's words, fed with the
 * swap product's own answers (what was given, received and paid as a fee), not the ledger's.
 */

let t: TestDatabase;
let ctx: TestContext;
let swap: SwapService;
let papers: PapersService;
let clock = Date.parse('2026-05-01T10:00:00Z');
const prices: Record<string, { bid: number; ask: number }> = {};
const fixedSource: PriceSource = {
  ...simulatedSource,
  isOpen: (instrument) => Boolean(prices[instrument.code]),
  quote: (instrument): Quote | null => {
    const p = prices[instrument.code];
    return p ? { ...p, mid: (p.bid + p.ask) / 2 } : null;
  },
};
const priced = (btc: number, eth: number) => {
  prices.BTCUSDT = { bid: btc - 5, ask: btc + 5 };
  prices.ETHUSDT = { bid: eth - 0.5, ask: eth + 0.5 };
  prices.USDCUSDT = { bid: 0.9999, ask: 1.0001 };
};
priced(50_000, 3_000);

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now: () => clock });
  const market = new MarketService(t.db, () => clock, fixedSource);
  await market.load();
  swap = new SwapService({ db: t.db, ledger: ctx.ledger, market, audit: ctx.audit, now: () => clock });
  papers = new PapersService({
    db: t.db,
    ledger: ctx.ledger,
    facts: new LedgerFacts(t.db),
    customers: new CustomerDirectory(t.db),
    obligations: async () => [],
    holdings: async () => [],
    now: () => clock,
  });
}, 120_000);
afterAll(() => t.close());
afterEach(async () => {
  await expectLedgerSound(ctx);
});

const SCALE: Record<string, number> = { USDT: 6, BTC: 8, ETH: 18 };
const minor = (asset: string, text: string) => parseMinor(text, SCALE[asset] ?? 0);

/** What the test did, in order, in the words of the method. */
type Step =
  | { kind: 'swap'; year: number; record: SwapRecord }
  | { kind: 'in'; year: number; asset: string; units: bigint }
  | { kind: 'reversal'; year: number; of: number };

/**
 * The expected rows, independently: per asset other than USDT a pool of units and cost (USDT
 * minor units); a swap's given units leave at floor(cost × units / units held) (all of it when
 * every unit goes); proceeds are the USDT received, or between two non-USDT assets the cost,
 * which the received asset takes over; USDT given is the received asset's cost; units received
 * otherwise enter at no cost; a reversal puts back what its swap took and takes out what it
 * added, and subtracts its figures. Only 2027's steps are counted.
 */
function expected(steps: readonly Step[], year: number): Map<string, { amount: bigint; entries: number }> {
  const units = new Map<string, bigint>();
  const cost = new Map<string, bigint>();
  const get = (m: Map<string, bigint>, a: string) => m.get(a) ?? 0n;
  const out = new Map<string, { amount: bigint; entries: number }>();
  const add = (count: boolean, asset: string, category: string, amount: bigint) => {
    if (!count) return;
    const key = `${asset}|${category}`;
    const row = out.get(key) ?? { amount: 0n, entries: 0 };
    out.set(key, { amount: row.amount + amount, entries: row.entries + 1 });
  };
  /** Per swap step: [asset given, units, cost out], [asset received, units, cost in], its figures. */
  const made = new Map<
    number,
    { out: [string, bigint, bigint]; in: [string, bigint, bigint]; figures: [string, string, bigint][] }
  >();
  steps.forEach((step, index) => {
    const count = step.year === year;
    if (step.kind === 'in') {
      units.set(step.asset, get(units, step.asset) + step.units);
      add(count, step.asset, 'noCost', step.units);
      return;
    }
    if (step.kind === 'reversal') {
      const m = made.get(step.of);
      if (!m) throw new Error('nothing to reverse');
      const [ga, gu, gc] = m.out;
      const [ra, ru, rc] = m.in;
      if (ga !== 'USDT') {
        units.set(ga, get(units, ga) + gu);
        cost.set(ga, get(cost, ga) + gc);
      }
      if (ra !== 'USDT') {
        units.set(ra, get(units, ra) - ru);
        cost.set(ra, get(cost, ra) - rc);
      }
      for (const [asset, category, amount] of m.figures) add(count, asset, category, -amount);
      return;
    }
    const r = step.record;
    const given = minor(r.from, r.amount);
    const received = minor(r.to, r.receive);
    const fee = minor(r.to, r.fee);
    let costOut = given;
    const figures: [string, string, bigint][] = [
      [r.to, 'fees', fee],
      [r.from, 'swapGiven', given],
      [r.to, 'swapReceived', received],
    ];
    if (r.from !== 'USDT') {
      const held = get(units, r.from);
      const c = get(cost, r.from);
      costOut = given >= held ? c : (c * given) / held;
      units.set(r.from, held - given);
      cost.set(r.from, c - costOut);
      const proceeds = r.to === 'USDT' ? received : costOut;
      figures.push(
        [r.from, 'swapProceeds', proceeds],
        [r.from, 'swapCost', costOut],
        [r.from, 'swapResult', proceeds - costOut],
      );
    }
    if (r.to !== 'USDT') {
      units.set(r.to, get(units, r.to) + received);
      cost.set(r.to, get(cost, r.to) + costOut);
    }
    made.set(index, { out: [r.from, given, costOut], in: [r.to, received, costOut], figures });
    for (const [asset, category, amount] of figures) add(count, asset, category, amount);
  });
  return out;
}

/** A CSV row's fields (quoted where a field holds a comma or a quote). */
const fieldsOf = (row: string) =>
  [...row.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('""', '"') : (m[2] ?? ''),
  );

const rowsOf = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');

describe(`the tax export's swaps at average cost on ${TEST_DB}`, () => {
  it('every figure of the year equals the method’s calculation, a reversal and the year before included', async () => {
    const customer = await ctx.customer({ name: 'tax-ada', live: 200_000_000_000n }); // 200,000 USDT
    const id = customer.id;
    const steps: Step[] = [];
    const at = (iso: string) => {
      clock = Date.parse(iso);
    };
    let n = 0;
    const doSwap = async (from: Asset, to: Asset, amount: string) => {
      n += 1;
      const q = await swap.quote('live', id, { from, to, amount });
      const record = await swap.commit('live', id, { quoteId: q.quoteId, requestId: `tax-${n}` });
      steps.push({ kind: 'swap', year: new Date(clock).getUTCFullYear(), record });
      return { record, index: steps.length - 1 };
    };

    // 2026: 0.5 BTC deposited (no cost), 20,000 USDT of BTC at 50,000, a swap reversed in 2027.
    at('2026-05-01T10:00:00Z');
    await deposit(ctx.ledger, id, 50_000_000n, { asset: 'BTC', key: 'tax-btc-in' });
    steps.push({ kind: 'in', year: 2026, asset: 'BTC', units: 50_000_000n });
    at('2026-06-01T10:00:00Z');
    await doSwap('USDT', 'BTC', '20000');
    at('2026-12-20T10:00:00Z');
    priced(40_000, 2_500);
    const december = await doSwap('USDT', 'BTC', '10000');

    // 2027.
    at('2027-01-10T10:00:00Z');
    await ctx.ledger.reverse(december.record.entryId, {
      actor: 'staff:1',
      reason: 'test: booked in error',
      idempotencyKey: 'tax-reverse-december',
    });
    steps.push({ kind: 'reversal', year: 2027, of: december.index });
    at('2027-02-01T10:00:00Z');
    priced(60_000, 3_000);
    await doSwap('USDT', 'BTC', '30000');
    at('2027-03-01T10:00:00Z');
    priced(70_000, 3_500);
    await doSwap('BTC', 'USDT', '0.3');
    at('2027-04-01T10:00:00Z');
    await doSwap('BTC', 'ETH', '0.1');
    at('2027-05-01T10:00:00Z');
    priced(65_000, 4_000);
    await doSwap('ETH', 'USDT', '1.5');
    at('2027-06-01T10:00:00Z');
    const june = await doSwap('BTC', 'USDT', '0.05');
    at('2027-06-02T10:00:00Z');
    await ctx.ledger.reverse(june.record.entryId, {
      actor: 'staff:1',
      reason: 'test: booked in error',
      idempotencyKey: 'tax-reverse-june',
    });
    steps.push({ kind: 'reversal', year: 2027, of: june.index });
    // 2028: outside the year.
    at('2028-01-05T10:00:00Z');
    await doSwap('BTC', 'USDT', '0.2');

    const want = expected(steps, 2027);
    // The calculation realises results on BTC and ETH in 2027, and the reversals take effect.
    expect(want.get('BTC|swapResult')?.amount).not.toBe(0n);
    expect(want.get('ETH|swapResult')?.amount).not.toBe(0n);
    expect(want.has('BTC|noCost')).toBe(false);

    const file = await papers.taxExport('live', id, 2027, 'en');
    const rows = rowsOf(file.bytes);
    expect(rows[1]).toBe('asset,category,amount,entries');
    const en = TEXT.en;
    const got = new Map<string, string>();
    for (const row of rows.slice(2)) {
      const [asset, label, amount, entries] = fieldsOf(row);
      const category = Object.entries(en.tax).find(([, l]) => l === label)?.[0];
      got.set(`${asset}|${category}`, `${amount},${entries}`);
    }
    const inUsdt = new Set(['swapProceeds', 'swapCost', 'swapResult']);
    const wanted = new Map(
      [...want].map(([key, v]) => {
        const [asset, category] = key.split('|') as [string, string];
        const scale = SCALE[inUsdt.has(category) ? 'USDT' : asset] ?? 0;
        return [key, `${formatMinor(v.amount, scale)},${v.entries}`];
      }),
    );
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(wanted));

    // 2026 on its own: the deposit at no cost, the December swap not yet reversed.
    const before = rowsOf((await papers.taxExport('live', id, 2026, 'en')).bytes);
    const want2026 = expected(steps, 2026);
    expect(before.map(fieldsOf)).toContainEqual(['BTC', en.tax.noCost, '0.50000000', '1']);
    expect(before).toContain(
      `USDT,${en.tax.swapGiven},${formatMinor(want2026.get('USDT|swapGiven')?.amount ?? 0n, 6)},2`,
    );
  });

  it('states the method first, in each of the ten languages, with its categories in that language', async () => {
    const customer = await ctx.customer({ name: 'tax-bob', live: 50_000_000_000n });
    clock = Date.parse('2027-07-01T10:00:00Z');
    priced(50_000, 3_000);
    const q = await swap.quote('live', customer.id, { from: 'USDT', to: 'BTC', amount: '1000' });
    await swap.commit('live', customer.id, { quoteId: q.quoteId, requestId: 'tax-bob-1' });
    const q2 = await swap.quote('live', customer.id, { from: 'BTC', to: 'USDT', amount: '0.01' });
    await swap.commit('live', customer.id, { quoteId: q2.quoteId, requestId: 'tax-bob-2' });
    for (const language of LANGUAGES) {
      const rows = rowsOf((await papers.taxExport('live', customer.id, 2027, language)).bytes);
      expect(rows[0], language).toBe(`# ${interpolate(TEXT[language].taxMethod, { year: 2027 })}`);
      expect(rows[0], language).toContain('USDT');
      for (const category of ['swapProceeds', 'swapCost', 'swapResult'] as const)
        expect(
          rows.some((r) => {
            const [asset, label] = fieldsOf(r);
            return asset === 'BTC' && label === TEXT[language].tax[category];
          }),
          `${language} ${category}`,
        ).toBe(true);
    }
  });
});
