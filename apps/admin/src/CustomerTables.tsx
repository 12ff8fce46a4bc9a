import type { CustomerOverview, Language } from '@swx/contract';
import { shownAmount } from './amount.ts';
import { useBackOffice } from './context.ts';
import { Amount, type Column, DataTable, Money, textColumn, timeColumn } from './DataTable.tsx';
import type { Text } from './text.ts';

type Balance = CustomerOverview['balances'][number];
type Position = CustomerOverview['positions'][number];
type Entry = CustomerOverview['transactions'][number];
type Session = CustomerOverview['sessions'][number];
type Words = Text['customer'];

const bookName = (t: Words, book: 'demo' | 'live') => (book === 'live' ? t.live : t.demo);

/** A column of the book a row is in (demo or live). */
const bookColumn = <R extends { book: 'demo' | 'live' }>(t: Words): Column<R> => ({
  key: 'book',
  header: t.book,
  cell: (r) => bookName(t, r.book),
  sortValue: (r) => r.book,
});

/** A balance's figure under the display rule; the row names the asset once, in its own column. */
const figure = (language: Language, value: string, asset: string) => (
  <Amount value={shownAmount(language, value, asset)} />
);

const balanceColumns = (t: Words, language: Language): Column<Balance>[] => [
  bookColumn(t),
  textColumn('asset', t.asset, (b) => b.asset),
  { key: 'balance', header: t.balance, cell: (b) => figure(language, b.balance, b.asset) },
  { key: 'held', header: t.held, cell: (b) => figure(language, b.held, b.asset) },
  { key: 'available', header: t.available, cell: (b) => figure(language, b.available, b.asset) },
];

const positionColumns = (t: Words, language: Language): Column<Position>[] => [
  textColumn('orderNo', t.orderNo, (p) => p.orderNo),
  bookColumn(t),
  textColumn('code', t.instrument, (p) => p.code),
  {
    key: 'direction',
    header: t.direction,
    cell: (p) => (p.direction === 'short' ? t.short : t.long),
    sortValue: (p) => p.direction,
  },
  { key: 'lots', header: t.lots, cell: (p) => <Amount value={`${p.lots} × ${p.leverage}`} /> },
  { key: 'open', header: t.openPrice, cell: (p) => <Amount value={p.openPrice} /> },
  {
    key: 'close',
    header: t.closePrice,
    cell: (p) => (p.closePrice ? <Amount value={p.closePrice} /> : '—'),
  },
  // Margins and results are settled in USDT.
  { key: 'margin', header: t.margin, cell: (p) => <Money value={p.margin} asset="USDT" /> },
  { key: 'profit', header: t.result, cell: (p) => <Money value={p.profit} asset="USDT" /> },
  {
    key: 'status',
    header: t.status,
    cell: (p) => (p.status === 'open' ? t.open : t.closed),
    sortValue: (p) => p.status,
  },
  timeColumn('opened', t.opened, language, (p) => p.openTime),
];

const entryColumns = (t: Words, language: Language): Column<Entry>[] => [
  timeColumn('time', t.time, language, (e) => e.createdAt),
  textColumn('entry', t.entry, (e) => e.entryId),
  bookColumn(t),
  { key: 'kind', header: t.kind, cell: (e) => <code>{e.kind}</code>, sortValue: (e) => e.kind },
  {
    key: 'account',
    header: t.account,
    cell: (e) => <code>{e.accountKind}</code>,
    sortValue: (e) => e.accountKind,
  },
  { key: 'amount', header: t.amount, cell: (e) => <Money value={e.amount} asset={e.asset} /> },
  { key: 'reference', header: t.reference, cell: (e) => e.reference ?? '—' },
];

const sessionColumns = (t: Words, language: Language): Column<Session>[] => [
  {
    key: 'device',
    header: t.device,
    cell: (s) => [s.browser, s.os].filter(Boolean).join(' · ') || '—',
    sortValue: (s) => s.browser,
  },
  { key: 'ip', header: t.address, cell: (s) => <Amount value={s.ip} /> },
  timeColumn('started', t.started, language, (s) => s.createdAt),
  timeColumn('seen', t.lastSeen, language, (s) => s.lastSeenAt),
];

/** A table of the overview, loaded with it (no loading or failure of its own). */
const loaded = { loading: false, failure: '' } as const;

/** The customer's money and activity: balances in both books, positions, ledger entries, live sessions. */
export function CustomerTables({ data }: { data: CustomerOverview }) {
  const { text, language } = useBackOffice();
  const t = text.customer;
  return (
    <>
      <h3>{t.balances}</h3>
      <DataTable
        caption={t.balances}
        columns={balanceColumns(t, language)}
        rows={data.balances}
        rowKey={(b) => `${b.book}-${b.asset}`}
        {...loaded}
        empty={t.balancesEmpty}
        testId="customer-balances"
      />
      <h3>{t.positions}</h3>
      <DataTable
        caption={t.positions}
        columns={positionColumns(t, language)}
        rows={data.positions}
        rowKey={(p) => p.id}
        {...loaded}
        empty={t.positionsEmpty}
        filterText={(p) => `${p.orderNo} ${p.code}`}
      />
      <h3>{t.transactions}</h3>
      <DataTable
        caption={t.transactions}
        columns={entryColumns(t, language)}
        rows={data.transactions}
        rowKey={(e) => `${e.book}-${e.entryId}-${e.accountKind}-${e.asset}`}
        {...loaded}
        empty={t.transactionsEmpty}
        filterText={(e) => `${e.entryId} ${e.kind} ${e.asset} ${e.reference ?? ''}`}
        testId="customer-transactions"
      />
      <h3>{t.sessions}</h3>
      <DataTable
        caption={t.sessions}
        columns={sessionColumns(t, language)}
        rows={data.sessions}
        rowKey={(s) => s.id}
        {...loaded}
        empty={t.sessionsEmpty}
        testId="customer-sessions"
      />
    </>
  );
}
