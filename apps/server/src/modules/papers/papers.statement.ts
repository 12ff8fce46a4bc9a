import { ASSET_SCALES, type Asset, type Book, formatMinor, interpolate, type Language } from '@swx/contract';
import { EARN, MARGIN, SMART, WALLET } from '../ledger/ledger.balances.ts';
import type { KindBalance } from '../ledger/ledger.facts.ts';
import type { LedgerEvent } from '../ledger/ledger.service.ts';
import { type HeldProduct, heldWords } from './papers.holdings.ts';
import { TEXT, type Texts } from './papers.texts.ts';

/**
 * A statement of one book and asset over whole UTC days, built from the ledger alone: the balances
 * at the period's two edges (the owner's postings before each instant) and every entry between
 * them, oldest first, each in the customer's words with its amount in the asset, the fee in it, and
 * the running balance. Opening plus every line equals closing, or the statement is refused.
 */

export type StatementLine = {
  entryId: number;
  at: string;
  kind: string;
  text: string;
  amount: bigint;
  fee: bigint;
  balance: bigint;
};

export type Statement = {
  book: Book;
  asset: Asset;
  from: string;
  to: string;
  language: Language;
  opening: bigint;
  closing: bigint;
  credits: bigint;
  debits: bigint;
  fees: bigint;
  lines: StatementLine[];
  /** The customer's accounts at the end, by kind, not zero: those of the balance (wallet, margin, earn, smart) first, then any other (a loan owed), which the balance does not count. */
  holdings: { kind: string; amount: bigint }[];
  /** The positions and products open at the end, as the products state them (`papers.holdings.ts`). */
  products: HeldProduct[];
};

export class StatementMismatchError extends Error {}

/**
 * The accounts whose sum is the customer's balance, as the ledger counts it (`balanceOf`): the
 * wallet and the sub-accounts holding their money. Any other customer account (a loan's, which
 * counts what is owed) is stated at the end beside the balance, never added to it.
 */
const BALANCE_KINDS: ReadonlySet<string> = new Set([WALLET, MARGIN, EARN, SMART]);
export const inBalance = (kind: string) => BALANCE_KINDS.has(kind);

const sumOf = (balances: readonly KindBalance[], asset: string) =>
  balances.filter((b) => b.asset === asset && inBalance(b.kind)).reduce((total, b) => total + b.balance, 0n);

/** What an event changed of the balance in the asset: the customer's own postings to balance accounts. */
const changeOf = (event: LedgerEvent, asset: string) =>
  event.postings
    .filter((p) => p.own && p.asset === asset && inBalance(p.account))
    .reduce((sum, p) => sum + p.amount, 0n);

/**
 * What an event moved between the customer's own accounts in the asset (into earn, a plan, a
 * position's margin, or back): the amount and the accounts it left and reached; null when none.
 */
function movedOf(event: LedgerEvent, asset: Asset): { amount: bigint; from: string; to: string } | null {
  const own = event.postings.filter((p) => p.own && p.asset === asset && inBalance(p.account));
  const out = own.find((p) => p.amount < 0n);
  const into = own.find((p) => p.amount > 0n && p.account !== out?.account);
  if (!out || !into) return null;
  const amount = into.amount < -out.amount ? into.amount : -out.amount;
  return { amount, from: out.account, to: into.account };
}

/** The event in the customer's words: its kind, what its module says of it, what it moved between their accounts. */
export function wordsOf(event: LedgerEvent, t: Texts, asset: Asset): string {
  const kinds = t.kind as Record<string, string>;
  const accounts = t.account as Record<string, string>;
  const parts = [kinds[event.kind] ?? t.kind.other];
  const d = event.detail;
  if (d?.instrument) parts.push(d.instrument);
  if (d?.orderNo) parts.push(interpolate(t.order, { orderNo: d.orderNo }));
  if (d?.swap) parts.push(interpolate(t.swapped, { from: d.swap.from, to: d.swap.to }));
  const moved = movedOf(event, asset);
  if (moved)
    parts.push(
      interpolate(t.moved, {
        amount: decimalOf(asset, moved.amount),
        asset,
        from: accounts[moved.from] ?? t.account.other,
        to: accounts[moved.to] ?? t.account.other,
      }),
    );
  if (event.reversesEntryId !== null) parts.push(interpolate(t.reverses, { id: event.reversesEntryId }));
  return parts.join(' · ');
}

/** The statement of these events (any order) between these balances; refused when they do not add up. */
export function buildStatement(input: {
  book: Book;
  asset: Asset;
  from: string;
  to: string;
  language: Language;
  start: readonly KindBalance[];
  end: readonly KindBalance[];
  events: readonly LedgerEvent[];
  products?: readonly HeldProduct[];
}): Statement {
  const { asset } = input;
  const t = TEXT[input.language];
  const opening = sumOf(input.start, asset);
  let balance = opening;
  let credits = 0n;
  let debits = 0n;
  let fees = 0n;
  const lines = [...input.events]
    .sort((a, b) => a.entryId - b.entryId)
    .map((event): StatementLine => {
      const amount = changeOf(event, asset);
      const fee = event.asset === asset && event.fee !== null ? event.fee : 0n;
      balance += amount;
      if (amount > 0n) credits += amount;
      else debits -= amount;
      fees += fee;
      return {
        entryId: event.entryId,
        at: event.createdAt,
        kind: event.kind,
        text: wordsOf(event, t, asset),
        amount,
        fee,
        balance,
      };
    });
  const closing = sumOf(input.end, asset);
  if (balance !== closing)
    throw new StatementMismatchError(
      `statement of ${asset}: ${opening} + lines = ${balance}, ledger ${closing}`,
    );
  const holdings = input.end
    .filter((b) => b.asset === asset && b.balance !== 0n)
    .sort((a, b) => Number(inBalance(b.kind)) - Number(inBalance(a.kind)))
    .map((b) => ({ kind: b.kind, amount: b.balance }));
  const products = [...(input.products ?? [])];
  return { ...input, opening, closing, credits, debits, fees, lines, holdings, products };
}

/** Minor units of the asset as an exact decimal. */
export const decimalOf = (asset: Asset, minor: bigint) => formatMinor(minor, ASSET_SCALES[asset]);

/** A CSV field: quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The statement as CSV (UTF-8 with a byte-order mark, CRLF): a header, the opening, every line, the closing, then what was open at the end. */
export function statementCsv(s: Statement): string {
  const t = TEXT[s.language];
  const d = (minor: bigint) => decimalOf(s.asset, minor);
  const row = (cells: readonly string[]) => cells.map(csvField).join(',');
  const rows = [
    t.csvHeader,
    row([s.from, '', 'opening', t.openingLabel, '', '', d(s.opening)]),
    ...s.lines.map((l) =>
      row([l.at, String(l.entryId), l.kind, l.text, d(l.amount), d(l.fee), d(l.balance)]),
    ),
    row([s.to, '', 'closing', t.closingLabel, '', d(s.fees), d(s.closing)]),
    // What was open at the end: each position and product, its amount (margin, investment, owed).
    ...s.products.map((h) =>
      row([s.to, '', `held_${h.kind}`, heldWords(h, t, s.language), h.amount, '', '']),
    ),
  ];
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}
