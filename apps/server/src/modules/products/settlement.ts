import type { Asset, EntryKind } from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import type { Job } from '../../platform/jobs.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { BulkLine } from '../ledger/ledger.bulk.ts';
import { type Book, type LedgerService, type SystemKind, WALLET } from '../ledger/ledger.service.ts';
import type { Attachment } from '../ledger/ledger.types.ts';
import {
  type DayKey,
  firstOwedDay,
  firstUnfundedDay,
  insertUnfundedDay,
  markDaySettled,
  setDayAlert,
  settlementDay,
} from './products.repository.ts';

/**
 * Daily settlement: one runner for every product that pays its holdings by the day (earn and VIP
 * funds, smart-plan income, loan accrual). The product owns its holdings and its arithmetic; the
 * runner owns the money rules:
 *
 * - one payment per (holding, day), under the key `settle:<product>:<holdingId>:<day>`, paid from
 *   the product's source (a system account of the book and asset, e.g. `yield_reserve`, or a
 *   guarded product account) to the holder; a page's payments are ONE compound ledger entry
 *   (`ledger.postCompound`: the source debited once, each holding credited by its own posting
 *   carrying its key and reference, its record written with it, in one transaction);
 * - holdings are read a page at a time by id (keyset), and each page is first *reserved* on the
 *   source: a ledger hold of the page's total (the same key on every run of that page). The page
 *   is paid only when the source's balance, less every other reservation on it, covers what the
 *   page still owes; otherwise nothing of the page is paid, the run stops, staff are alerted once
 *   per day (DESIGN §2 rule 4), and the hold stays as the day's claim on the source, so no other
 *   payout drains the source ahead of a day already due (claims that together exceed the source
 *   may all wait, each alerted, until it is funded). A source is a system account and may go
 *   negative in the ledger: the reservation is what keeps settlements from driving it below zero,
 *   also when several products (or nodes) pay from one source at once;
 * - the hold is posted by the page's entry (or released) in the same transaction, once every
 *   payment of its page exists: a run that overlaps another on the same page (a node taking over an
 *   expired job lease) waits for its locks and then finds the page paid;
 * - a payment already made under its key (by an earlier run, another node, or a loan's catch-up,
 *   as an entry of its own or a compound entry's posting) is never paid again; a settled day is
 *   recorded (`settlement_days`) and never paid again.
 *
 * The day comes from an injected clock (`now`): the runner never reads the system time itself.
 */

/** What the runner needs of a holding: its id (the keyset, unique within the product) and its owner. */
export type Holding = { id: number; ownerId: number };

export type SettledProduct<H extends Holding = Holding> = {
  /** Names the product in keys, jobs and alerts: `^[a-z][a-z0-9_.-]{1,39}$`, e.g. `earn.usdt-flexible`. */
  name: string;
  /** The books it settles in; each book is settled (and stopped) on its own. */
  books: readonly Book[];
  asset: Asset;
  /**
   * The system account every payment comes from, in the holding's book and the product's asset; or
   * a product's own account that may not go negative (`guarded`: the database refuses an
   * overdraft, so the runner checks it covers the page and pays without reserving it first).
   */
  source: SystemKind | { name: string; account: (book: Book) => Promise<number>; guarded: true };
  /** The holder's account a payment goes to; the wallet unless said otherwise. */
  creditKind?: string;
  /** The ledger entry kind of a payment, e.g. `earn_payout` (one of the contract's ENTRY_KINDS). */
  entryKind: EntryKind;
  /**
   * The holdings owed something for `day` in `book`, with id > `afterId`, in increasing id order,
   * at most `limit`. Once the day is over, the same answer every time it is asked. The runner asks
   * for the next page while it posts the previous one: a page's answer must not depend on what
   * paying the holdings before it writes.
   */
  pageHoldings: (book: Book, afterId: number, limit: number, day: string) => Promise<readonly H[]>;
  /** What the holding earns for `day`, in minor units of `asset` (0: nothing). The same every time. */
  paymentFor: (holding: H, day: string) => bigint | Promise<bigint>;
  /** The entry's reference (the customer's record shows it); `<product>:<holdingId>` by default. */
  reference?: (holding: H, day: string) => string;
  /** The product's record of a payment, written in the payment's ledger transaction (e.g. its income history). */
  attach?: (holding: H, day: string, amount: bigint) => Attachment<unknown>;
  /** The product's record of a day it could not pay (e.g. its holders' notices), written once, with the day's. */
  unfunded?: (tx: Queryable, book: Book, day: string) => Promise<void>;
};

export type DaySettlement = {
  product: string;
  book: Book;
  day: string;
  status: 'settled' | 'unfunded';
  /** Payments of the day (made by this run or an earlier one) and their total in minor units; when unfunded, of the pages paid before the stop. */
  payments: number;
  paidMinor: bigint;
  /** When unfunded: what the stopped page still needed and what the source could give it. */
  shortfall?: { firstHoldingId: number; neededMinor: bigint; availableMinor: bigint };
  /** Settled by this run after an earlier run recorded it unfunded: its payments came late. */
  late?: true;
};

/** The first day a product could not pay in a book and has not paid since (its holders wait); null when none. */
export const unfundedSince = (db: Queryable, product: string, book: Book): Promise<string | null> =>
  firstUnfundedDay(db, product, book);

/** The first day a product still owes in a book (a run settles from it); null before its first settlement. */
export const owedFrom = (db: Queryable, product: string, book: Book): Promise<string | null> =>
  firstOwedDay(db, product, book);

/** The idempotency key of one holding's payment for one day. */
export const settlementKey = (product: string, holdingId: number, day: string) =>
  `settle:${product}:${holdingId}:${day}`;
/** The key of a page's reservation on the source (the page named by its first holding). */
export const reservationKey = (product: string, book: Book, day: string, firstHoldingId: number) =>
  `settle-reserve:${product}:${book}:${day}:${firstHoldingId}`;
const releaseKey = (product: string, book: Book, day: string, firstHoldingId: number) =>
  `settle-release:${product}:${book}:${day}:${firstHoldingId}`;

const ACTOR = 'system';
const DAY_MS = 86_400_000;
const PRODUCT_NAME = /^[a-z][a-z0-9_.-]{1,39}$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A day its source could not cover: the run stops (and its job fails, to be tried again). */
export class SettlementUnfundedError extends Error {
  readonly days: readonly DaySettlement[];

  constructor(days: readonly DaySettlement[]) {
    super(
      `settlement stopped: the source cannot cover ${days.map((d) => `${d.product} ${d.book} ${d.day}`).join(', ')}`,
    );
    this.days = days;
  }
}

type Owed<H> = { holding: H; amount: bigint; key: string };

/** A page read and prepared: its first and last holding ids, what it owes and its lines. */
type Prepared<H> = {
  firstId: number;
  lastId: number;
  owed: Owed<H>[];
  lines: BulkLine[];
  failure: { error: unknown } | null;
};

/**
 * Holdings a page of the products' daily runs pays (product.ts): one reservation, one transaction.
 * Measured on PostgreSQL with 100,000 earn holdings (`npm run bench:earn`): 500 a page (the
 * runner's own default, which its tests page by) settled the day in 11.5 s, 2,000 in 9.4 s (a
 * quarter of the statements and commits; 8.8 s since pages are prepared ahead); a page's
 * transaction holds its accounts for about a tenth of a second.
 */
export const SETTLEMENT_PAGE = 2000;

export class SettlementRunner {
  private readonly db: Database;
  private readonly ledger: LedgerService;
  private readonly audit: AuditService;
  private readonly now: () => number;
  private readonly logger: Logger | undefined;
  private readonly pageSize: number;
  private readonly catchUpDays: number;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    audit: AuditService;
    /** The clock, in epoch milliseconds. */
    now: () => number;
    logger?: Logger;
    /** Holdings per page: one reservation and one compound entry (one transaction) each. */
    pageSize?: number;
    /** Missed days a run catches up at most, oldest first (the rest in the next day's run). */
    catchUpDays?: number;
  }) {
    this.db = deps.db;
    this.ledger = deps.ledger;
    this.audit = deps.audit;
    this.now = deps.now;
    this.logger = deps.logger;
    this.pageSize = deps.pageSize ?? 500;
    this.catchUpDays = deps.catchUpDays ?? 31;
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1 || this.pageSize > 5000)
      throw new Error('a settlement page holds 1 to 5,000 holdings');
    if (!Number.isInteger(this.catchUpDays) || this.catchUpDays < 1)
      throw new Error('a settlement run catches up at least one day');
  }

  /** The day a run settles now: the UTC day before the clock's. */
  dueDay(): string {
    return new Date(this.now() - DAY_MS).toISOString().slice(0, 10);
  }

  /**
   * Settles every day the product owes up to the due day, per book, oldest first: a day missed
   * (nodes down) or unfunded before is settled first; a book stops at its first unfunded day.
   */
  async settleDue<H extends Holding>(product: SettledProduct<H>): Promise<DaySettlement[]> {
    const due = this.dueDay();
    const results: DaySettlement[] = [];
    for (const book of product.books) {
      const owed = await firstOwedDay(this.db, product.name, book);
      let day = owed !== null && owed < due ? owed : due;
      for (let n = 0; n < this.catchUpDays; n++) {
        const result = await this.settleDay(product, book, day);
        results.push(result);
        if (result.status === 'unfunded' || day >= due) break;
        day = addDays(day, 1);
      }
    }
    return results;
  }

  /** Settles one product's day in one book; a settled day answers what it paid and pays nothing. */
  async settleDay<H extends Holding>(
    product: SettledProduct<H>,
    book: Book,
    day: string,
  ): Promise<DaySettlement> {
    checkDeclaration(product, book, day);
    const key: DayKey = { product: product.name, book, day };
    const recorded = await settlementDay(this.db, key);
    if (recorded?.status === 'settled')
      return { ...key, status: 'settled', payments: recorded.payments, paidMinor: recorded.paidMinor };
    const source =
      typeof product.source === 'string'
        ? await this.ledger.systemAccount(book, product.asset, product.source)
        : await product.source.account(book);
    let payments = 0;
    let paidMinor = 0n;
    // The next page is read as soon as this page's holdings are known, and prepared (what each
    // holding is owed, its holder's account, its line) while this one is posted: pages come in
    // holding-id order and a page's payments change only its own holdings, so what is read and
    // prepared is what would be after the posting. Its reservation and payment wait for this page's
    // outcome: a page that stops the day leaves the next unpaid. A read or preparation ahead is
    // awaited below, or dropped when this page stops the day: never an unhandled rejection.
    const quiet = <T>(promise: Promise<T>) => {
      promise.catch(() => undefined);
      return promise;
    };
    const read = (afterId: number) => quiet(product.pageHoldings(book, afterId, this.pageSize, day));
    let rows = await read(0);
    let prepared = quiet(this.preparePage(product, book, day, 0, rows));
    for (;;) {
      const ahead = rows.length === this.pageSize ? read(rows.at(-1)?.id ?? 0) : null;
      const page = await prepared;
      if (!page) break;
      const next = ahead
        ? quiet(
            ahead.then((nextRows) => ({
              rows: nextRows,
              prepared: quiet(this.preparePage(product, book, day, page.lastId, nextRows)),
            })),
          )
        : null;
      const shortfall = await this.settlePage(product, book, day, source, page);
      if (shortfall)
        return this.stop(
          product,
          key,
          { payments, paidMinor },
          { ...shortfall, firstHoldingId: page.firstId },
        );
      payments += page.owed.length;
      paidMinor += sum(page.owed);
      if (!next) break;
      ({ rows, prepared } = await next);
    }
    await markDaySettled(this.db, { ...key, payments, paidMinor });
    this.logger?.info(
      { product: product.name, book, day, payments, paidMinor: String(paidMinor) },
      'day settled',
    );
    return { ...key, status: 'settled', payments, paidMinor, ...(recorded ? { late: true as const } : {}) };
  }

  /**
   * One page as it will be paid: checked to come in id order after `afterId`, each holding's
   * payment, its holder's account (one statement; a first payment creates it) and its line. A
   * payment the product cannot describe (its reference or record throws) is left out and named.
   */
  private async preparePage<H extends Holding>(
    product: SettledProduct<H>,
    book: Book,
    day: string,
    afterId: number,
    page: readonly H[],
  ): Promise<Prepared<H> | null> {
    const first = page[0];
    if (!first) return null;
    if (page.length > this.pageSize)
      throw new Error(`${product.name}: a page of ${page.length} holdings, more than ${this.pageSize}`);
    const owed: Owed<H>[] = [];
    let lastId = afterId;
    for (const holding of page) {
      // A page out of order would skip or repeat holdings: refuse it rather than pay wrong.
      if (!Number.isSafeInteger(holding.id) || holding.id <= lastId)
        throw new Error(`${product.name}: holdings must come in increasing id order after ${afterId}`);
      lastId = holding.id;
      const amount = await product.paymentFor(holding, day);
      if (amount < 0n) throw new Error(`${product.name}: a negative payment for holding ${holding.id}`);
      if (amount > 0n) owed.push({ holding, amount, key: settlementKey(product.name, holding.id, day) });
    }
    const prepared = { firstId: first.id, lastId, owed };
    if (owed.length === 0) return { ...prepared, lines: [], failure: null };
    const accounts = await this.ledger.customerAccounts(
      book,
      owed.map((o) => o.holding.ownerId),
      product.asset,
      product.creditKind ?? WALLET,
    );
    const lines: BulkLine[] = [];
    let failure: { error: unknown } | null = null;
    for (const { holding, amount, key } of owed) {
      try {
        lines.push({
          key,
          accountId: accounts.get(holding.ownerId) ?? -1,
          amount,
          reference: product.reference?.(holding, day) ?? `${product.name}:${holding.id}`,
          ...(product.attach ? { attach: product.attach(holding, day, amount) } : {}),
        });
      } catch (error) {
        failure ??= { error };
      }
    }
    return { ...prepared, lines, failure };
  }

  /**
   * Reserves (a system source), checks and pays one prepared page as one compound ledger entry;
   * answers the shortfall when the source cannot cover what the page still owes. A payment left
   * out waits for the next run; the rest are paid, and the reservation stays until every payment
   * of the page exists.
   */
  private async settlePage<H extends Holding>(
    product: SettledProduct<H>,
    book: Book,
    day: string,
    source: number,
    page: Prepared<H>,
  ): Promise<{ neededMinor: bigint; availableMinor: bigint } | null> {
    const total = sum(page.owed);
    if (total === 0n) return null;
    const reservation =
      typeof product.source === 'string'
        ? await this.ledger.hold({
            book,
            accountId: source,
            amount: total,
            idempotencyKey: reservationKey(product.name, book, day, page.firstId),
            actor: ACTOR,
            reference: `settlement:${product.name}:${day}`,
          })
        : null;
    const result = await this.ledger.postCompound({
      book,
      kind: product.entryKind,
      sourceAccountId: source,
      actor: ACTOR,
      reference: `settlement:${product.name}:${day}`,
      lines: page.lines,
      ...(reservation
        ? {
            reservation: {
              holdId: reservation.holdId,
              releaseKey: releaseKey(product.name, book, day, page.firstId),
              ...(page.failure ? { keep: true } : {}),
            },
          }
        : {}),
    });
    if (result.status === 'short')
      return { neededMinor: result.neededMinor, availableMinor: result.availableMinor };
    if (page.failure) throw page.failure.error;
    return null;
  }

  /** Records an unfunded day and alerts staff, both once per day (in one transaction). */
  private async stop<H extends Holding>(
    product: SettledProduct<H>,
    key: DayKey,
    done: { payments: number; paidMinor: bigint },
    shortfall: { firstHoldingId: number; neededMinor: bigint; availableMinor: bigint },
  ): Promise<DaySettlement> {
    const sourceName = typeof product.source === 'string' ? product.source : product.source.name;
    const message = `settlement of ${product.name} for ${key.day} (${key.book}) stopped: the ${sourceName} ${product.asset} account cannot cover ${shortfall.neededMinor} minor units (it has ${shortfall.availableMinor} not reserved); nothing more is paid until it is funded`;
    await this.db.transaction(async (tx) => {
      if (!(await insertUnfundedDay(tx, key))) return;
      await product.unfunded?.(tx, key.book, key.day);
      const alertId = await this.audit.alertStaffInTx(tx, 'settlement', message, {
        ...key,
        asset: product.asset,
        source: sourceName,
        ...shortfall,
        paidBeforeStop: done,
      });
      await setDayAlert(tx, key, alertId);
    });
    this.logger?.error(
      { ...key, neededMinor: String(shortfall.neededMinor) },
      'settlement stopped: source cannot cover',
    );
    return { ...key, status: 'unfunded', ...done, shortfall };
  }
}

/** The daily job of one product: run key = the day it settles (by the runner's clock), on one node. */
export function settlementJob<H extends Holding>(runner: SettlementRunner, product: SettledProduct<H>): Job {
  return {
    name: `settlement.${product.name}`,
    everyMs: 15 * 60_000,
    // The runner's clock, not the job runner's: tests move days by moving the clock.
    runKey: () => runner.dueDay(),
    // An unfunded day fails the run, which is tried again every 15 minutes through the day (staff
    // are alerted once), so funding the source resumes the payments.
    maxAttempts: 96,
    run: async ({ logger }) => {
      const days = await runner.settleDue(product);
      const unfunded = days.filter((d) => d.status === 'unfunded');
      if (unfunded.length > 0) throw new SettlementUnfundedError(unfunded);
      logger.info({ days: days.map((d) => `${d.book} ${d.day}`) }, 'settlement done');
    },
  };
}

function checkDeclaration<H extends Holding>(product: SettledProduct<H>, book: Book, day: string): void {
  if (!PRODUCT_NAME.test(product.name))
    throw new Error(`product name ${product.name} is not ${PRODUCT_NAME}`);
  if (!product.books.includes(book)) throw new Error(`${product.name} does not settle in the ${book} book`);
  if (!ISO_DAY.test(day) || addDays(day, 0) !== day) throw new Error(`${day} is not a day`);
}

const sum = (owed: readonly { amount: bigint }[]) => owed.reduce((total, o) => total + o.amount, 0n);
