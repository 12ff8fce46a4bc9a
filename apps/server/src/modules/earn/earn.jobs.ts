import { ASSET_SCALES, type Asset, EARN_ASSETS, formatMinor } from '@swx/contract';
import { type Job, minuteKey } from '../../platform/jobs.ts';
import type { Book } from '../ledger/ledger.service.ts';
import { addDays } from '../products/figures.ts';
import { type DaySettlement, owedFrom, type SettlementRunner } from '../products/settlement.ts';
import { listProducts, type ProductRow } from './earn.products.repository.ts';
import { incomesBetween, investorsThrough } from './earn.repository.ts';
import type { EarnService } from './earn.service.ts';
import { mature, publishRates, returnRefusedPromises, settled } from './earn.settlement.ts';
import type { EarnContext } from './earn.shared.ts';

/* The earn jobs: the daily settlement on the settlement runner's clock, and the minute's returns. */

/**
 * One run of the daily job: publish dynamic rates, settle every product's due days, pay back the
 * principal of investments whose last day is settled, and return refused proofs' promises.
 * Answers the days that could not be settled (their reserve is short: staff were alerted).
 * Customers are told of their income a window of about `investmentsAWindow` investments at a time.
 */
export async function runDaily(
  ctx: EarnContext,
  runner: SettlementRunner,
  investmentsAWindow = INVESTMENTS_A_WINDOW,
): Promise<{ product: string; book: Book; day: string }[]> {
  const due = runner.dueDay();
  const unfunded: { product: string; book: Book; day: string }[] = [];
  const paid: Paid[] = [];
  for (const p of await listProducts(ctx.db)) {
    await publishRates(ctx, p, due);
    const product = settled(ctx, p);
    // What the product owed before this run: a day before it was paid by an earlier run.
    const from = {
      demo: await owedFrom(ctx.db, product.name, 'demo'),
      live: await owedFrom(ctx.db, product.name, 'live'),
    };
    const days = await runner.settleDue(product);
    for (const book of ['demo', 'live'] as const) {
      const fresh = paidNow(days, book, from[book]);
      if (fresh) paid.push({ product: p, book, ...fresh });
      const stop = days.find((d) => d.book === book && d.status === 'unfunded');
      if (stop) unfunded.push({ product: stop.product, book, day: stop.day });
      const settledThrough = stop ? addDays(stop.day, -1) : days.filter((d) => d.book === book).at(-1)?.day;
      if (settledThrough) await mature(ctx, p, book, settledThrough);
    }
  }
  await tellIncome(ctx, paid, investmentsAWindow);
  await returnRefusedPromises(ctx);
  return unfunded;
}

/** Days a product paid in a book in this run: from, to, and whether they came late (after its reserve was short). */
type Paid = { product: ProductRow; book: Book; from: string; to: string; late: boolean };

function paidNow(
  days: readonly DaySettlement[],
  book: Book,
  owedBefore: string | null,
): Omit<Paid, 'product' | 'book'> | null {
  const fresh = days.filter(
    (d) => d.book === book && d.status === 'settled' && (owedBefore === null || d.day >= owedBefore),
  );
  const first = fresh[0];
  const last = fresh.at(-1);
  if (!first || !last) return null;
  return { from: first.day, to: last.day, late: fresh.some((d) => d.late) };
}

/**
 * What this run paid, said to customers: the days owed since a product's reserve was short, one
 * notice per customer and product (`earn_resumed`); every other day's income in one digest per
 * customer and book (`earn_income`), however many investments, products and assets paid it, naming
 * each asset's income in the catalogue's order (`amounts`: exact decimals, which the notices
 * module shows as a list in the reader's language). Customers are told a window at a time (about
 * `window` investments, every customer whole), so a day of a million holdings never holds all its
 * notices at once.
 */
async function tellIncome(ctx: EarnContext, paid: readonly Paid[], window: number): Promise<void> {
  if (paid.length === 0) return;
  let after = 0;
  for (;;) {
    const through = await investorsThrough(ctx.db, after, window);
    if (through === null) return;
    await tellWindow(ctx, paid, { after, through });
    after = through;
  }
}

/** One window of customers: their resumed notices one by one, their digests in statements of DIGESTS_AT_ONCE. */
async function tellWindow(
  ctx: EarnContext,
  paid: readonly Paid[],
  customers: { after: number; through: number },
): Promise<void> {
  const digest = new Map<
    string,
    { userId: number; book: Book; amounts: Map<Asset, bigint>; n: number; from: string; to: string }
  >();
  for (const run of paid) {
    const rows = await incomesBetween(ctx.db, run.product.id, run.book, run.from, run.to, customers);
    for (const row of rows) {
      if (row.amount === 0n) continue;
      if (run.late) {
        await tell(ctx, row.userId, 'earn_resumed', {
          product: run.product.name,
          since: run.from,
          book: run.book,
          amount: formatMinor(row.amount, ASSET_SCALES[row.asset]),
          asset: row.asset,
        });
        continue;
      }
      const key = `${row.userId}:${run.book}`;
      const d = digest.get(key) ?? {
        userId: row.userId,
        book: run.book,
        amounts: new Map<Asset, bigint>(),
        n: 0,
        from: run.from,
        to: run.to,
      };
      digest.set(key, d);
      d.amounts.set(row.asset, (d.amounts.get(row.asset) ?? 0n) + row.amount);
      d.n += row.investments;
      if (run.from < d.from) d.from = run.from;
      if (run.to > d.to) d.to = run.to;
    }
  }
  const notices = [...digest.values()].map((d) => ({
    userId: d.userId,
    language: 'en' as const,
    kind: 'earn_income' as const,
    params: {
      day: d.from === d.to ? d.from : `${d.from} – ${d.to}`,
      book: d.book,
      count: String(d.n),
      amounts: EARN_ASSETS.filter((asset) => d.amounts.has(asset))
        .map((asset) => `${formatMinor(d.amounts.get(asset) ?? 0n, ASSET_SCALES[asset])} ${asset}`)
        .join('; '),
    },
  }));
  // Two statements at a time, each on a connection of its own (PostgreSQL writes them side by
  // side; PGlite, one connection, one after the other).
  let at = 0;
  const lane = async () => {
    while (at < notices.length) {
      const chunk = notices.slice(at, at + DIGESTS_AT_ONCE);
      at += DIGESTS_AT_ONCE;
      try {
        await ctx.notices.notifyManyInTx(ctx.db, chunk);
      } catch (error) {
        ctx.logger?.warn({ err: error, customers: chunk.length }, 'earn: income notices failed');
      }
    }
  };
  await Promise.all([lane(), lane()]);
}

const DIGESTS_AT_ONCE = 1000;
const INVESTMENTS_A_WINDOW = 20_000;

/** A notice after the money moved: a failure is logged, never undoes a payment. */
async function tell(ctx: EarnContext, userId: number, kind: string, params: Record<string, string>) {
  try {
    await ctx.notices.notify(userId, 'en', kind, params);
  } catch (error) {
    ctx.logger?.warn({ err: error, userId, kind }, 'earn: notice failed');
  }
}

/** Every minute: a refused proof's promise goes back to its reserve. */
export function earnReturnsJob(earn: EarnService): Job {
  return {
    name: 'earn.returns',
    everyMs: 60_000,
    runKey: minuteKey,
    run: async () => {
      await earn.returnRefusedPromises();
    },
  };
}
