import { ASSET_SCALES, type Asset, formatMinor, interpolate, type Language } from '@swx/contract';
import type { LedgerEvent } from '../ledger/ledger.service.ts';
import { csvField } from './papers.statement.ts';
import { TEXT } from './papers.texts.ts';

/**
 * A year's tax-ready figures per asset (UTC calendar year), from the ledger's postings to the
 * customer's accounts. Results, income and fees as posted (closed positions' results after their
 * fees, earn and trading plan income, referral rewards, fees paid); swaps as amounts given and
 * received, and each swap as a **disposal of the asset given**, valued in the reporting currency
 * USDT at **average cost per asset** (bigint only):
 *
 * - a pool per asset other than USDT: the units the customer holds and their cost in USDT minor
 *   units, run over every entry from the first (entry order), not only the year's;
 * - a swap giving USDT adds the USDT given to the received asset's cost; a swap giving another
 *   asset takes from its pool the units given at cost = floor(pool cost × units / pool units) (all
 *   of the cost when every unit goes) and realises proceeds − cost, the proceeds being the USDT
 *   received after the fee, or, between two assets neither of which is USDT (no USDT price is
 *   posted), that cost itself, carried over to the asset received (no result);
 * - units received otherwise (deposits, income, transfers) enter at no cost (a row of their own
 *   says how many); units that leave otherwise (withdrawals, fees) take their average cost along;
 * - a reversal undoes the entry it corrects: its pool changes and its figures in every category,
 *   in the year of the reversal.
 */

export const TAX_CATEGORIES = [
  'positions',
  'earn',
  'smart',
  'referral',
  'fees',
  'swapGiven',
  'swapReceived',
  'swapProceeds',
  'swapCost',
  'swapResult',
  'noCost',
] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];
export type TaxRow = { asset: string; category: TaxCategory; amount: bigint; entries: number };

/** The reporting currency: the figures of a disposal are in it. */
export const TAX_CURRENCY = 'USDT';
/** Categories stated in the reporting currency whatever the row's asset. */
const IN_REPORTING: ReadonlySet<TaxCategory> = new Set(['swapProceeds', 'swapCost', 'swapResult']);

const INCOME_KINDS: Partial<Record<string, TaxCategory>> = {
  earn_payout: 'earn',
  smart_income: 'smart',
  referral: 'referral',
};

type Figure = [asset: string, category: TaxCategory, amount: bigint];
/** A change of an asset's pool: units and their cost (USDT minor units). */
type PoolChange = { asset: string; units: bigint; cost: bigint };
type Pool = { units: bigint; cost: bigint };

/** The cost of `units` taken from a pool at its average: rounded down, all of it when every unit goes. */
export function averageCostOf(pool: Pool, units: bigint): bigint {
  if (pool.units <= 0n || pool.cost <= 0n) return 0n;
  if (units >= pool.units) return pool.cost;
  return (pool.cost * units) / pool.units;
}

class Pools {
  private readonly pools = new Map<string, Pool>();

  of(asset: string): Pool {
    let pool = this.pools.get(asset);
    if (!pool) {
      pool = { units: 0n, cost: 0n };
      this.pools.set(asset, pool);
    }
    return pool;
  }

  apply(change: PoolChange): void {
    const pool = this.of(change.asset);
    pool.units += change.units;
    pool.cost += change.cost;
  }

  /** Units leaving at their average cost: the change made (negative units and cost). */
  take(asset: string, units: bigint): PoolChange {
    const change = { asset, units: -units, cost: -averageCostOf(this.of(asset), units) };
    this.apply(change);
    return change;
  }
}

/** What a swap does to the pools, and its figures. */
function swapEffects(e: LedgerEvent, pools: Pools): { changes: PoolChange[]; figures: Figure[] } {
  const given = e.changes.find((c) => c.amount < 0n);
  const received = e.changes.find((c) => c.amount > 0n);
  const changes: PoolChange[] = [];
  const figures: Figure[] = [];
  if (!given || !received) return { changes, figures };
  const units = -given.amount;
  let cost = units; // USDT given: its own value.
  if (given.asset !== TAX_CURRENCY) {
    const out = pools.take(given.asset, units);
    changes.push(out);
    cost = -out.cost;
    const proceeds = received.asset === TAX_CURRENCY ? received.amount : cost;
    figures.push(
      [given.asset, 'swapProceeds', proceeds],
      [given.asset, 'swapCost', cost],
      [given.asset, 'swapResult', proceeds - cost],
    );
  }
  if (received.asset !== TAX_CURRENCY) {
    const into = { asset: received.asset, units: received.amount, cost };
    pools.apply(into);
    changes.push(into);
  }
  return { changes, figures };
}

/** What any other entry does to the pools: units in at no cost, units out at their average cost. */
function otherEffects(e: LedgerEvent, pools: Pools): { changes: PoolChange[]; figures: Figure[] } {
  const changes: PoolChange[] = [];
  const figures: Figure[] = [];
  for (const c of e.changes) {
    if (c.asset === TAX_CURRENCY || c.amount === 0n) continue;
    if (c.amount > 0n) {
      const into = { asset: c.asset, units: c.amount, cost: 0n };
      pools.apply(into);
      changes.push(into);
      figures.push([c.asset, 'noCost', c.amount]);
    } else changes.push(pools.take(c.asset, -c.amount));
  }
  return { changes, figures };
}

/** The figures posted as they are: results, income, fees, and the amounts a swap gave and received. */
function postedFigures(e: LedgerEvent): Figure[] {
  const out: Figure[] = [];
  if (e.result !== null) out.push([e.asset, 'positions', e.result]);
  if (e.fee !== null && e.fee !== 0n) out.push([e.asset, 'fees', e.fee]);
  const income = INCOME_KINDS[e.kind];
  for (const c of e.changes) {
    if (income) out.push([c.asset, income, c.amount]);
    if (e.kind === 'swap')
      out.push([c.asset, c.amount < 0n ? 'swapGiven' : 'swapReceived', c.amount < 0n ? -c.amount : c.amount]);
  }
  return out;
}

/**
 * The rows of the year [from, to) (ISO instants), by asset then category, from the customer's
 * events of the book from their first up to `to` (any order: they are taken in entry order).
 */
export function taxRows(history: readonly LedgerEvent[], from: string, to: string): TaxRow[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const pools = new Pools();
  /** Each entry's pool changes and figures, for the reversal that undoes it. */
  const done = new Map<number, { changes: PoolChange[]; figures: Figure[] }>();
  const rows = new Map<string, TaxRow>();
  for (const e of [...history].sort((a, b) => a.entryId - b.entryId)) {
    const at = Date.parse(e.createdAt);
    if (at >= end) continue;
    const corrected = e.reversesEntryId === null ? undefined : done.get(e.reversesEntryId);
    let effect: { changes: PoolChange[]; figures: Figure[] };
    if (corrected) {
      effect = {
        changes: corrected.changes.map((c) => ({ asset: c.asset, units: -c.units, cost: -c.cost })),
        figures: corrected.figures.map(([asset, category, amount]) => [asset, category, -amount]),
      };
      for (const c of effect.changes) pools.apply(c);
    } else {
      const moved = e.kind === 'swap' ? swapEffects(e, pools) : otherEffects(e, pools);
      effect = { changes: moved.changes, figures: [...postedFigures(e), ...moved.figures] };
    }
    done.set(e.entryId, effect);
    if (at < start) continue;
    for (const [asset, category, amount] of effect.figures) {
      const key = `${asset}|${category}`;
      const row = rows.get(key) ?? { asset, category, amount: 0n, entries: 0 };
      row.amount += amount;
      row.entries += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()].sort(
    (a, b) =>
      a.asset.localeCompare(b.asset) ||
      TAX_CATEGORIES.indexOf(a.category) - TAX_CATEGORIES.indexOf(b.category),
  );
}

/** The CSV: the method first (a comment line), then one row per asset and category. */
export function taxCsv(year: number, rows: readonly TaxRow[], language: Language): string {
  const t = TEXT[language];
  const scaleOf = (r: TaxRow) =>
    ASSET_SCALES[(IN_REPORTING.has(r.category) ? TAX_CURRENCY : r.asset) as Asset] ?? 0;
  const lines = [
    `# ${interpolate(t.taxMethod, { year })}`,
    t.taxHeader,
    ...rows.map((r) =>
      [r.asset, t.tax[r.category], formatMinor(r.amount, scaleOf(r)), String(r.entries)]
        .map(csvField)
        .join(','),
    ),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
