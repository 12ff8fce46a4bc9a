import {
  ASSET_SCALES,
  type Asset,
  type Book,
  formatMinor,
  interpolate,
  type Language,
  SETTLEMENT_ASSET,
} from '@swx/contract';
import type { EarnService } from '../earn/earn.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { LoansService } from '../loans/loans.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';
import type { SmartService } from '../smart/smart.service.ts';
import type { Texts } from './papers.texts.ts';

/**
 * What a customer held in the products at an instant (a statement's end), as each product states
 * it: open trading positions (instrument, side, size, entry price, margin), earn investments,
 * loans with what was owed, and trading plans. Whether one was open at the instant is decided by
 * the product's own times: a position's market seconds of opening and closing, an investment's
 * start and its redemption or maturity, a loan's payout day and closing, a plan's start and end.
 */
export type HeldProduct =
  | {
      kind: 'position';
      id: number;
      asset: Asset;
      orderNo: string;
      instrument: string;
      side: 'long' | 'short';
      lots: string;
      openPrice: string;
      /** The margin set aside. */
      amount: string;
    }
  | { kind: 'earn' | 'plan'; id: number; asset: Asset; product: string; amount: string; until: string | null }
  | {
      kind: 'loan';
      id: number;
      asset: Asset;
      product: string;
      principal: string;
      /** What the ledger's loan account held for this loan at the instant (what was owed). */
      amount: string;
      until: string | null;
    };

export type HoldingsReader = (q: {
  book: Book;
  userId: number;
  asset: Asset;
  at: string;
}) => Promise<HeldProduct[]>;

type Products = {
  positions: PositionsService;
  earn: EarnService;
  loans: LoansService;
  smart: SmartService;
  ledger: LedgerService;
};

/** Did something that started at `start` (null: never) and ended at `end` (null: not yet) run at `at`? */
const openAt = (start: string | null, end: string | null, at: string) =>
  start !== null && Date.parse(start) < Date.parse(at) && (end === null || Date.parse(end) >= Date.parse(at));

/** Per loan, what its entries (reference `loan:<id>`) had posted to the customer's loan account before `at`. */
async function owedAt(p: Products, q: { book: Book; userId: number; asset: Asset; at: string }) {
  const owed = new Map<string, bigint>();
  for (const kind of ['loan', 'repayment']) {
    for (let beforeId: number | undefined; ; ) {
      const page = await p.ledger.eventsOf(q.book, q.userId, {
        kind,
        asset: q.asset,
        to: q.at,
        limit: 200,
        ...(beforeId ? { beforeId } : {}),
      });
      for (const e of page)
        for (const posting of e.postings)
          if (posting.own && posting.account === 'loan' && posting.asset === q.asset && e.reference)
            owed.set(e.reference, (owed.get(e.reference) ?? 0n) + posting.amount);
      if (page.length < 200) break;
      beforeId = page[page.length - 1]?.entryId;
    }
  }
  return owed;
}

async function loansAt(p: Products, q: { book: Book; userId: number; asset: Asset; at: string }) {
  const open = (await p.loans.loans(q.book, q.userId, undefined))
    .toSorted((a, b) => a.id - b.id)
    .filter(
      (l) =>
        l.asset === q.asset &&
        openAt(l.disbursedAt === null ? null : `${l.disbursedAt}T00:00:00.000Z`, l.closedAt, q.at),
    );
  if (open.length === 0) return [];
  const owed = await owedAt(p, q);
  return open.map(
    (l): HeldProduct => ({
      kind: 'loan',
      id: l.id,
      asset: q.asset,
      product: l.productName,
      principal: l.amount,
      amount: formatMinor(owed.get(`loan:${l.id}`) ?? 0n, ASSET_SCALES[q.asset]),
      until: l.dueDate,
    }),
  );
}

/** The products' reads, as the statement needs them: what was open at the instant, in one asset. */
export function productHoldings(p: Products): HoldingsReader {
  return async (q) => {
    const [positions, investments, plans, loans] = await Promise.all([
      q.asset === SETTLEMENT_ASSET ? p.positions.openAt(q.userId, q.book, q.at) : [],
      p.earn.investments(q.book, q.userId, {}),
      p.smart.list(q.book, q.userId, undefined),
      loansAt(p, q),
    ]);
    return [
      ...positions.map(
        (x): HeldProduct => ({
          kind: 'position',
          id: x.id,
          asset: q.asset,
          orderNo: x.orderNo,
          instrument: x.code,
          side: x.direction,
          lots: x.lots,
          openPrice: x.openPrice,
          amount: x.margin,
        }),
      ),
      ...investments
        .toSorted((a, b) => a.id - b.id)
        .filter((i) => i.asset === q.asset && i.status !== 'pending' && i.status !== 'rejected')
        .filter((i) =>
          openAt(
            i.payWith === 'proof' ? i.accrualStart : i.entrustTime,
            i.redeemedAt ?? (i.status === 'expired' ? i.collectionTime : null),
            q.at,
          ),
        )
        .map(
          (i): HeldProduct => ({
            kind: 'earn',
            id: i.id,
            asset: q.asset,
            product: i.productName,
            amount: i.amount,
            until: i.expiryTime,
          }),
        ),
      ...plans
        .toSorted((a, b) => a.id - b.id)
        .filter((s) => s.asset === q.asset && openAt(s.startTime, s.endedAt, q.at))
        .map(
          (s): HeldProduct => ({
            kind: 'plan',
            id: s.id,
            asset: q.asset,
            product: s.productName,
            amount: s.amount,
            until: s.endTime,
          }),
        ),
      ...loans,
    ];
  };
}

/** A holding in the customer's words; `fig` sets a figure or a date (isolated left to right in Arabic). */
export function heldWords(
  h: HeldProduct,
  t: Texts,
  language: Language,
  fig: (text: string) => string = (text) => text,
): string {
  const values = { id: h.id, asset: h.asset, amount: fig(h.amount) };
  const day = (iso: string | null) => fig(iso ? iso.slice(0, 10) : '');
  const x = (template: string, more: Record<string, string | number>) =>
    interpolate(template, { ...values, ...more }, language);
  if (h.kind === 'position')
    return x(t.held.position, {
      orderNo: h.orderNo,
      instrument: h.instrument,
      side: t.held[h.side],
      lots: fig(h.lots),
      price: fig(h.openPrice),
    });
  if (h.kind === 'loan')
    return x(t.held.loan, {
      product: h.product,
      principal: fig(h.principal),
      due: h.until ? day(h.until) : t.held.open,
    });
  const until = h.until ? interpolate(t.held.until, { day: day(h.until) }, language) : t.held.open;
  return x(t.held[h.kind], { product: h.product, until });
}
