import type { Book } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** SQL of papers: `papers_statements` (statements recorded) and `papers_calendar_links` (hashed tokens). */

export type StatementRow = {
  book: Book;
  asset: string;
  from: string;
  to: string;
  opening: bigint;
  closing: bigint;
  credits: bigint;
  debits: bigint;
  fees: bigint;
  events: number;
  language: string;
  generatedAt: string;
};

type RawStatement = {
  book: Book;
  asset: string;
  period_from: string;
  period_to: string;
  opening: string;
  closing: string;
  credits: string;
  debits: string;
  fees: string;
  events: number;
  language: string;
  generated_at: string;
};

const STATEMENT_COLUMNS = `book, asset, to_char(period_from, 'YYYY-MM-DD') AS period_from,
  to_char(period_to, 'YYYY-MM-DD') AS period_to, opening::text, closing::text, credits::text, debits::text,
  fees::text, events, language,
  to_char(generated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS generated_at`;

const statementOf = (r: RawStatement): StatementRow => ({
  book: r.book,
  asset: r.asset,
  from: r.period_from,
  to: r.period_to,
  opening: BigInt(r.opening),
  closing: BigInt(r.closing),
  credits: BigInt(r.credits),
  debits: BigInt(r.debits),
  fees: BigInt(r.fees),
  events: Number(r.events),
  language: r.language,
  generatedAt: r.generated_at,
});

/** Records a statement's figures (again: the latest making replaces the figures of the same period). */
export async function recordStatement(db: Queryable, userId: number, s: StatementRow): Promise<void> {
  await db.query(
    `INSERT INTO papers_statements
       (user_id, book, asset, period_from, period_to, opening, closing, credits, debits, fees, events, language, generated_at)
     VALUES ($1, $2, $3, $4::date, $5::date, $6, $7, $8, $9, $10, $11, $12, $13::timestamptz)
     ON CONFLICT (user_id, book, asset, period_from, period_to) DO UPDATE SET
       opening = EXCLUDED.opening, closing = EXCLUDED.closing, credits = EXCLUDED.credits,
       debits = EXCLUDED.debits, fees = EXCLUDED.fees, events = EXCLUDED.events,
       language = EXCLUDED.language, generated_at = EXCLUDED.generated_at`,
    [
      userId,
      s.book,
      s.asset,
      s.from,
      s.to,
      String(s.opening),
      String(s.closing),
      String(s.credits),
      String(s.debits),
      String(s.fees),
      s.events,
      s.language,
      s.generatedAt,
    ],
  );
}

/** A customer's statements in a book, newest period first. */
export async function statementsOf(
  db: Queryable,
  userId: number,
  book: Book,
  limit = 120,
): Promise<StatementRow[]> {
  const rows = await db.query<RawStatement>(
    `SELECT ${STATEMENT_COLUMNS} FROM papers_statements
     WHERE user_id = $1 AND book = $2 ORDER BY period_from DESC, asset LIMIT $3`,
    [userId, book, limit],
  );
  return rows.map(statementOf);
}

export type CalendarLinkRow = { userId: number; language: string; createdAt: string };

/** Sets a customer's calendar link to this token hash (replacing any earlier one). */
export async function putCalendarLink(
  db: Queryable,
  link: { userId: number; tokenHash: string; language: string; createdAt: string },
): Promise<void> {
  await db.query(
    `INSERT INTO papers_calendar_links (user_id, token_hash, language, created_at)
     VALUES ($1, $2, $3, $4::timestamptz)
     ON CONFLICT (user_id) DO UPDATE SET
       token_hash = EXCLUDED.token_hash, language = EXCLUDED.language, created_at = EXCLUDED.created_at`,
    [link.userId, link.tokenHash, link.language, link.createdAt],
  );
}

/** Deletes a customer's calendar link; answers whether there was one. */
export async function deleteCalendarLink(db: Queryable, userId: number): Promise<boolean> {
  const rows = await db.query<{ user_id: string }>(
    'DELETE FROM papers_calendar_links WHERE user_id = $1 RETURNING user_id',
    [userId],
  );
  return rows.length > 0;
}

type RawLink = { user_id: string; language: string; created_at: string };
const LINK_COLUMNS = `user_id, language,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
const linkOf = (r: RawLink): CalendarLinkRow => ({
  userId: Number(r.user_id),
  language: r.language,
  createdAt: r.created_at,
});

export async function calendarLinkOf(db: Queryable, userId: number): Promise<CalendarLinkRow | null> {
  const rows = await db.query<RawLink>(
    `SELECT ${LINK_COLUMNS} FROM papers_calendar_links WHERE user_id = $1`,
    [userId],
  );
  return rows[0] ? linkOf(rows[0]) : null;
}

/** The link whose token hashes to this, if any (the feed's only key). */
export async function calendarLinkByHash(db: Queryable, tokenHash: string): Promise<CalendarLinkRow | null> {
  const rows = await db.query<RawLink>(
    `SELECT ${LINK_COLUMNS} FROM papers_calendar_links WHERE token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ? linkOf(rows[0]) : null;
}
