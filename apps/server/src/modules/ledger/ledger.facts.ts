import type { Book, EntryKind } from '@swx/contract';
import type { Database } from '../../platform/db.ts';
import {
  type FeeDay,
  type FeeReversal,
  feeReversals,
  feesByOwnerDay,
  firstEntryAt,
  ownersWithStandingCredit,
  reversalsOfCredits,
} from './ledger.facts.repository.ts';
import { type KindBalance, ownerBalancesAt, ownersActiveIn } from './ledger.history.repository.ts';

export type { FeeDay, FeeReversal, KindBalance };

const DAY_MS = 86_400_000;
const dayStart = (day: string) => `${day}T00:00:00.000Z`;
const nextDayStart = (day: string) => new Date(Date.parse(dayStart(day)) + DAY_MS).toISOString();

/**
 * What the journal says of customers' activity, read for programmes that reward it (invites):
 * fees collected from a customer per day, a customer's first deposit or trade, deposits reversed;
 * and, for statements (papers), an owner's balances at an instant and who was active in a window.
 * Read only; balances stay the ledger service's.
 */
export class LedgerFacts {
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /**
   * The fees the `fees` accounts of `book` were credited (net) per customer, UTC day and asset,
   * in entries of `kinds` made on the days from..to (inclusive) that debited that customer (and no
   * other). `ownerIds` null: every customer.
   */
  feesCollected(q: {
    book: Book;
    from: string;
    to: string;
    kinds: readonly EntryKind[];
    ownerIds: readonly number[] | null;
  }): Promise<FeeDay[]> {
    return feesByOwnerDay(this.db, { ...q, from: dayStart(q.from), to: nextDayStart(q.to) });
  }

  /** When each customer's first entry of `kinds` that credited them (`credit`) or debited them was made; reversed ones left out. */
  firstEntries(q: {
    book: Book;
    ownerIds: readonly number[];
    kinds: readonly EntryKind[];
    credit: boolean;
  }): Promise<Map<number, string>> {
    return firstEntryAt(this.db, q);
  }

  /** Customers whose credits of `kind` (e.g. a deposit) were reversed on the days from..to, with the last reversal's time. */
  reversedCredits(q: { book: Book; kind: EntryKind; from: string; to: string }) {
    return reversalsOfCredits(this.db, { ...q, from: dayStart(q.from), to: nextDayStart(q.to) });
  }

  /** Of these customers, those with a credit of `kinds` made by the end of `day` and not reversed by then. */
  standingCredits(q: { book: Book; ownerIds: readonly number[]; kinds: readonly EntryKind[]; day: string }) {
    return ownersWithStandingCredit(this.db, { ...q, before: nextDayStart(q.day) });
  }

  /**
   * The fees given back by reversals made on the days from..to: per customer, the day the reversed
   * entry (of `kinds`, debiting that customer alone) was made, and asset.
   */
  feesReversed(q: {
    book: Book;
    from: string;
    to: string;
    kinds: readonly EntryKind[];
  }): Promise<FeeReversal[]> {
    return feeReversals(this.db, { ...q, from: dayStart(q.from), to: nextDayStart(q.to) });
  }

  /** An owner's balances per asset and account kind at an instant (postings of entries made before it). */
  balancesAt(q: { book: Book; ownerId: number; at: string }): Promise<KindBalance[]> {
    return ownerBalancesAt(this.db, q);
  }

  /** The customers and assets with a posting in entries made in [from, to) (instants). */
  activeOwners(q: { book: Book; from: string; to: string }): Promise<{ ownerId: number; asset: string }[]> {
    return ownersActiveIn(this.db, q);
  }
}
