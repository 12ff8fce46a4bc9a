import {
  ASSET_SCALES,
  type Asset,
  Code,
  calls,
  formatMinor,
  type TransactionLine,
  transactionsQuery,
} from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError, type Book, mountCall, sendCode, validateInput } from '../../platform/http.ts';
import type { MarketService } from '../market/market.service.ts';
import type { LedgerService } from './ledger.service.ts';

const USDT_SCALE = ASSET_SCALES.USDT;
const scaleOf = (asset: string) => ASSET_SCALES[asset as Asset] ?? 0;

/** Balances on the wire; values in USDT use each asset's <ASSET>USDT mid price. */
async function balancesOf(
  ledger: LedgerService,
  market: MarketService | undefined,
  book: Book,
  userId: number,
) {
  const valued = await ledger.valuedBalances(
    book,
    userId,
    (asset) => market?.midPrice(`${asset}USDT`) ?? null,
  );
  return {
    book,
    balances: valued.balances.map((b) => ({
      asset: b.asset,
      scale: b.scale,
      balance: formatMinor(b.balance, b.scale),
      held: formatMinor(b.held, b.scale),
      heldBy: b.heldBy.map((part) => ({ reason: part.reason, amount: formatMinor(part.amount, b.scale) })),
      available: formatMinor(b.available, b.scale),
      valueUsdt: b.valueUsdtMinor === null ? null : formatMinor(b.valueUsdtMinor, USDT_SCALE),
    })),
    totalValueUsdt: formatMinor(valued.totalUsdtMinor, USDT_SCALE),
    unpricedAssets: valued.unpriced,
  };
}

type Filter = { kind?: string; asset?: string; from?: string; to?: string; before?: number; size?: number };

async function linesOf(
  ledger: LedgerService,
  book: Book,
  userId: number,
  filter: Filter,
  limit: number,
): Promise<TransactionLine[]> {
  const events = await ledger.eventsOf(book, userId, {
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.asset ? { asset: filter.asset } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    // "to" is a whole day: entries before the next midnight.
    ...(filter.to ? { to: new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString() } : {}),
    ...(filter.before ? { beforeId: filter.before } : {}),
    limit,
  });
  return events.map((e) => {
    const scale = scaleOf(e.asset);
    const decimal = (minor: bigint | null) => (minor === null ? null : formatMinor(minor, scale));
    return {
      entryId: e.entryId,
      kind: e.kind,
      createdAt: e.createdAt,
      status: e.reversedBy === null ? 'posted' : 'reversed',
      reversesEntryId: e.reversesEntryId,
      reference: e.reference,
      orderNo: e.detail?.orderNo ?? null,
      instrument: e.detail?.instrument ?? null,
      closeReason: e.detail?.closeReason ?? null,
      swap: e.detail?.swap ?? null,
      asset: e.asset,
      changes: e.changes.map((c) => ({ asset: c.asset, amount: formatMinor(c.amount, scaleOf(c.asset)) })),
      margin: decimal(e.margin),
      fee: decimal(e.fee),
      result: decimal(e.result),
      postings: e.postings.map((p) => ({
        account: p.account,
        own: p.own,
        asset: p.asset,
        amount: formatMinor(p.amount, scaleOf(p.asset)),
      })),
    };
  });
}

/** A CSV cell: quoted, and never read as a formula by a spreadsheet. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

export function ledgerRoutes(app: FastifyInstance, ledger: LedgerService, market?: MarketService): void {
  mountCall(app, calls.getBalances, ({ customer, request }) =>
    balancesOf(ledger, market, request.book, customer.userId),
  );

  mountCall(app, calls.listTransactions, async ({ customer, request, query }) => {
    const size = query.size ?? 20;
    const lines = await linesOf(ledger, request.book, customer.userId, query, size + 1);
    const items = lines.slice(0, size);
    return { items, nextBefore: lines.length > size ? (items.at(-1)?.entryId ?? null) : null };
  });

  mountCall(app, calls.resetDemo, async ({ customer, request }) => {
    if (request.book !== 'demo') throw new ApiError(Code.FORBIDDEN);
    // A refusal (positions open: 10033, money held: 10011) answers its code (ledgerErrorCode).
    await ledger.resetDemo(customer.userId, `${Date.now()}`);
    return balancesOf(ledger, market, 'demo', customer.userId);
  });

  // The transaction record as CSV (up to 10,000 lines, same filters), for the export button.
  app.get('/swx/customer/user/exportTransactions', async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    validateInput(undefined, request.query); // control characters: 10026, like every call
    const parsed = transactionsQuery.safeParse(request.query ?? {});
    if (!parsed.success) return sendCode(reply, request, Code.INVALID_INPUT);
    const lines = await linesOf(ledger, request.book, request.customer.userId, parsed.data, 10_000);
    // One line per event and asset it changed; the trading figures on the line of their asset.
    const header = [
      'entry',
      'time',
      'type',
      'asset',
      'amount',
      'status',
      'order',
      'margin',
      'fee',
      'result',
      'reference',
    ];
    const body = lines.flatMap((l) =>
      (l.changes.length > 0 ? l.changes : [{ asset: l.asset, amount: '0' }]).map((c) =>
        [
          String(l.entryId),
          l.createdAt,
          l.kind,
          c.asset,
          c.amount,
          l.status,
          l.orderNo ?? '',
          c.asset === l.asset ? (l.margin ?? '') : '',
          c.asset === l.asset ? (l.fee ?? '') : '',
          c.asset === l.asset ? (l.result ?? '') : '',
          l.reference ?? '',
        ]
          .map(cell)
          .join(','),
      ),
    );
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="swx-${request.book}-transactions.csv"`);
    return [header.map(cell).join(','), ...body].join('\r\n');
  });
}
