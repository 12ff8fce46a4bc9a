import { createHash, randomBytes } from 'node:crypto';
import {
  type Asset,
  type Book,
  CALENDAR_FEED_PATH,
  type CalendarLinkData,
  CUSTOMER_API_BASE,
  isLanguage,
  LANGUAGE_TAGS,
  type Language,
  type StatementFormat,
  type StatementRecord,
} from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { LedgerFacts } from '../ledger/ledger.facts.ts';
import type { LedgerEvent, LedgerService } from '../ledger/ledger.service.ts';
import type { HoldingsReader } from './papers.holdings.ts';
import { calendarFeed } from './papers.ics.ts';
import { type ObligationsReader, obligationEvents } from './papers.obligations.ts';
import { statementPdf } from './papers.pdf.ts';
import {
  calendarLinkByHash,
  calendarLinkOf,
  deleteCalendarLink,
  putCalendarLink,
  recordStatement,
  statementsOf,
} from './papers.repository.ts';
import { buildStatement, decimalOf, type Statement, statementCsv } from './papers.statement.ts';
import { taxCsv, taxRows } from './papers.tax.ts';
import { TEXT } from './papers.texts.ts';

export type PapersDeps = {
  db: Database;
  ledger: LedgerService;
  facts: LedgerFacts;
  customers: CustomerDirectory;
  obligations: ObligationsReader;
  holdings: HoldingsReader;
  now: () => number;
};

export type PaperFile = { bytes: Uint8Array; contentType: string; fileName: string };

const DAY_MS = 86_400_000;
const startOf = (day: string) => `${day}T00:00:00.000Z`;
const afterDay = (day: string) => new Date(Date.parse(startOf(day)) + DAY_MS).toISOString();
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const languageOf = (value: string): Language => (isLanguage(value) ? value : 'en');

/** The previous UTC month of a moment, as its first and last days. */
export function previousMonth(now: Date): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/**
 * Papers a customer keeps, made from the ledger (statements, the tax export) and from the products'
 * own records (the obligations calendar). A composition: it reads the ledger through its public
 * services and the products through the reader `papers.module.ts` wires.
 */
export class PapersService {
  private readonly deps: PapersDeps;

  constructor(deps: PapersDeps) {
    this.deps = deps;
  }

  /** Every event of an owner in [from, to) (instants), optionally of one asset, newest first. */
  private async events(
    book: Book,
    ownerId: number,
    from: string,
    to: string,
    asset?: Asset,
  ): Promise<LedgerEvent[]> {
    const all: LedgerEvent[] = [];
    for (let beforeId: number | undefined; ; ) {
      const page = await this.deps.ledger.eventsOf(book, ownerId, {
        from,
        to,
        limit: 200,
        ...(asset ? { asset } : {}),
        ...(beforeId ? { beforeId } : {}),
      });
      all.push(...page);
      if (page.length < 200) return all;
      beforeId = page[page.length - 1]?.entryId;
    }
  }

  /** Whether a period is whole days, in order, at most 366 days, not starting after today. */
  validPeriod(from: string, to: string): boolean {
    const a = Date.parse(startOf(from));
    const b = Date.parse(startOf(to));
    const today = Date.parse(startOf(new Date(this.deps.now()).toISOString().slice(0, 10)));
    return Number.isFinite(a) && Number.isFinite(b) && a <= b && b - a <= 365 * DAY_MS && a <= today;
  }

  /** A statement of a book and asset over whole UTC days (its end no later than now), in a language. */
  async statement(
    book: Book,
    userId: number,
    q: { asset: Asset; from: string; to: string },
    language: Language,
  ): Promise<Statement> {
    const nowIso = new Date(this.deps.now()).toISOString();
    const from = startOf(q.from);
    const endOfPeriod = afterDay(q.to);
    const end = endOfPeriod < nowIso ? endOfPeriod : nowIso;
    const [start, close, events, products] = await Promise.all([
      this.deps.facts.balancesAt({ book, ownerId: userId, at: from }),
      this.deps.facts.balancesAt({ book, ownerId: userId, at: end }),
      this.events(book, userId, from, end, q.asset),
      this.deps.holdings({ book, userId, asset: q.asset, at: end }),
    ]);
    return buildStatement({ book, ...q, language, start, end: close, events, products });
  }

  /** The statement's file (PDF or CSV); its figures are recorded. */
  async statementFile(
    book: Book,
    userId: number,
    q: { asset: Asset; from: string; to: string; format: StatementFormat },
    language: Language,
  ): Promise<PaperFile> {
    const s = await this.statement(book, userId, q, language);
    const madeAt = new Date(this.deps.now());
    await this.record(userId, s, madeAt);
    const fileName = `statement-${book}-${q.asset}-${q.from}-${q.to}.${q.format}`;
    if (q.format === 'csv')
      return {
        bytes: Buffer.from(statementCsv(s), 'utf8'),
        contentType: 'text/csv; charset=utf-8',
        fileName,
      };
    const customer = await this.deps.customers.get(userId);
    const bytes = await statementPdf(s, { name: customer?.userName ?? String(userId), id: userId }, madeAt);
    return { bytes, contentType: 'application/pdf', fileName };
  }

  private record(userId: number, s: Statement, madeAt: Date): Promise<void> {
    return recordStatement(this.deps.db, userId, {
      ...s,
      events: s.lines.length,
      generatedAt: madeAt.toISOString(),
    });
  }

  async statements(book: Book, userId: number): Promise<StatementRecord[]> {
    return (await statementsOf(this.deps.db, userId, book)).map((r) => {
      const d = (minor: bigint) => decimalOf(r.asset as Asset, minor);
      return {
        book: r.book,
        asset: r.asset as Asset,
        from: r.from,
        to: r.to,
        opening: d(r.opening),
        closing: d(r.closing),
        credits: d(r.credits),
        debits: d(r.debits),
        fees: d(r.fees),
        events: r.events,
        generatedAt: r.generatedAt,
      };
    });
  }

  /**
   * The monthly run (on the 1st, on the module clock): a statement of the month before for every
   * customer and asset with an entry in it, in both books, in the customer's language. Answers how
   * many were recorded. Running it again records the same figures.
   */
  async monthly(now: Date): Promise<number> {
    const { from, to } = previousMonth(now);
    let made = 0;
    for (const book of ['live', 'demo'] as const) {
      const active = await this.deps.facts.activeOwners({ book, from: startOf(from), to: afterDay(to) });
      for (const { ownerId, asset } of active) {
        const customer = await this.deps.customers.get(ownerId);
        const language = languageOf(customer?.language ?? 'en');
        const s = await this.statement(book, ownerId, { asset: asset as Asset, from, to }, language);
        await this.record(ownerId, s, now);
        made += 1;
      }
    }
    return made;
  }

  /**
   * A year's tax-ready figures per asset (CSV, the method stated first). Read from the customer's
   * first entry: the average costs of a year's disposals run over every entry before it.
   */
  async taxExport(book: Book, userId: number, year: number, language: Language): Promise<PaperFile> {
    const from = startOf(`${year}-01-01`);
    const to = startOf(`${year + 1}-01-01`);
    const history = await this.events(book, userId, startOf('1970-01-01'), to);
    return {
      bytes: Buffer.from(taxCsv(year, taxRows(history, from, to), language), 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      fileName: `tax-${book}-${year}.csv`,
    };
  }

  async calendarLink(userId: number): Promise<CalendarLinkData> {
    const link = await calendarLinkOf(this.deps.db, userId);
    return { active: link !== null, createdAt: link?.createdAt ?? null };
  }

  /** A new private link (32 random bytes; only its SHA-256 is kept): the earlier one stops working. */
  async rotateCalendarLink(userId: number, language: Language): Promise<CalendarLinkData> {
    const token = randomBytes(32).toString('base64url');
    const createdAt = new Date(this.deps.now()).toISOString();
    await putCalendarLink(this.deps.db, { userId, tokenHash: tokenHash(token), language, createdAt });
    const path = CUSTOMER_API_BASE + CALENDAR_FEED_PATH.replace(':token', `${token}.ics`);
    return { active: true, createdAt, path };
  }

  async revokeCalendarLink(userId: number): Promise<CalendarLinkData> {
    await deleteCalendarLink(this.deps.db, userId);
    return { active: false, createdAt: null };
  }

  /** The feed of the link whose token this is, in the link's language; null for any other token. */
  async calendarFeed(token: string): Promise<string | null> {
    const link = await calendarLinkByHash(this.deps.db, tokenHash(token));
    if (!link) return null;
    const language = languageOf(link.language);
    const events = obligationEvents(await this.deps.obligations(link.userId), link.userId, language);
    return calendarFeed(
      TEXT[language].calendarName,
      LANGUAGE_TAGS[language],
      events,
      new Date(this.deps.now()),
    );
  }
}
