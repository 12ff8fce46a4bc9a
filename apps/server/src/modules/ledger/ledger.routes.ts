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
import { ApiError, type Book, mountCall, sendCode } from '../../platform/http.ts';
import type { MarketService } from '../market/market.service.ts';
import { LedgerError, type LedgerService } from './ledger.service.ts';

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
  const lines = await ledger.entriesOf(book, userId, {
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.asset ? { asset: filter.asset } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    // "to" is a whole day: entries before the next midnight.
    ...(filter.to ? { to: new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString() } : {}),
    ...(filter.before ? { beforeId: filter.before } : {}),
    limit,
  });
  return lines.map((l) => ({
    entryId: l.entryId,
    kind: l.kind,
    asset: l.asset,
    amount: formatMinor(l.amount, scaleOf(l.asset)),
    createdAt: l.createdAt,
    status: l.reversedBy === null ? 'posted' : 'reversed',
    reference: l.reference,
    reversesEntryId: l.reversesEntryId,
  }));
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
    try {
      await ledger.resetDemo(customer.userId, `${Date.now()}`);
    } catch (error) {
      if (error instanceof LedgerError && error.reason === 'insufficient_funds')
        throw new ApiError(Code.INSUFFICIENT_BALANCE);
      throw error;
    }
    return balancesOf(ledger, market, 'demo', customer.userId);
  });

  // The transaction record as CSV (up to 10,000 lines, same filters), for the export button.
  app.get('/swx/customer/user/exportTransactions', async (request, reply) => {
    if (!request.customer) return sendCode(reply, request, Code.SESSION_EXPIRED);
    const parsed = transactionsQuery.safeParse(request.query ?? {});
    if (!parsed.success) return sendCode(reply, request, Code.INVALID_INPUT);
    const lines = await linesOf(ledger, request.book, request.customer.userId, parsed.data, 10_000);
    const header = ['entry', 'time', 'type', 'asset', 'amount', 'status', 'reference'];
    const body = lines.map((l) =>
      [String(l.entryId), l.createdAt, l.kind, l.asset, l.amount, l.status, l.reference ?? '']
        .map(cell)
        .join(','),
    );
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="swx-${request.book}-transactions.csv"`);
    return [header.map(cell).join(','), ...body].join('\r\n');
  });
}
