import { ENTRY_KINDS } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi, downloadFile } from '../app/api.ts';
import { formatDate } from '../app/i18n.ts';
import { formatAmount, signOf } from '../app/money.ts';
import { type TransactionFilter, transactionsQueryKey } from '../app/queries.ts';
import { useClientState } from '../app/state.ts';
import { BookSwitch } from '../shell/BookSwitch.tsx';
import { AccountPage } from './Account.tsx';
import { Empty, Failed, Loading } from './PageState.tsx';

const ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
const SCALES: Record<string, number> = { USDT: 6, USDC: 6, BTC: 8, ETH: 18 };
const PAGE = 20;

function Filters({ value, onApply }: { value: TransactionFilter; onApply: (f: TransactionFilter) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const set =
    (key: keyof TransactionFilter) => (event: React.ChangeEvent<HTMLSelectElement | HTMLInputElement>) =>
      setDraft((d) => {
        const next = { ...d };
        if (event.target.value) next[key] = event.target.value;
        else delete next[key];
        return next;
      });
  return (
    <form
      className="filters"
      aria-label={t('records.filter')}
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      <label>
        {t('records.type')}
        <select value={draft.kind ?? ''} onChange={set('kind')} name="kind">
          <option value="">{t('records.all')}</option>
          {ENTRY_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`records.kind.${kind}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('records.asset')}
        <select value={draft.asset ?? ''} onChange={set('asset')} name="asset">
          <option value="">{t('records.all')}</option>
          {ASSETS.map((asset) => (
            <option key={asset} value={asset}>
              {asset}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('records.from')}
        <input type="date" value={draft.from ?? ''} onChange={set('from')} name="from" />
      </label>
      <label>
        {t('records.to')}
        <input type="date" value={draft.to ?? ''} onChange={set('to')} name="to" />
      </label>
      <div className="row">
        <button type="submit" className="button primary">
          {t('records.apply')}
        </button>
        <button
          type="button"
          className="button ghost"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {t('records.clear')}
        </button>
      </div>
    </form>
  );
}

function Records({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const [filter, setFilter] = useState<TransactionFilter>({});
  const [exportError, setExportError] = useState('');
  const query = useInfiniteQuery({
    queryKey: transactionsQueryKey(userId, book, filter),
    queryFn: ({ pageParam }) =>
      callApi('listTransactions', {
        query: { ...filter, size: PAGE, ...(pageParam ? { before: pageParam } : {}) },
      }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  const exportCsv = async () => {
    setExportError('');
    try {
      await downloadFile('/user/exportTransactions', { ...filter }, `swx-${book}-transactions.csv`);
    } catch (error) {
      setExportError(error instanceof ApiFailure ? error.message : t('state.error'));
    }
  };
  return (
    <>
      <Filters value={filter} onApply={setFilter} />
      <div className="row end">
        <button type="button" className="button ghost" onClick={() => void exportCsv()}>
          {t('records.export')}
        </button>
      </div>
      {exportError ? <p role="alert">{exportError}</p> : null}
      {query.isPending ? <Loading /> : null}
      {query.isError ? <Failed message={query.error.message} onRetry={() => void query.refetch()} /> : null}
      {query.isSuccess && items.length === 0 ? <Empty text={t('records.empty')} /> : null}
      {items.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
        <section className="table-scroll card" aria-label={t('title.transactions')} tabIndex={0}>
          <table className="data-table records">
            <thead>
              <tr>
                <th scope="col">{t('records.time')}</th>
                <th scope="col">{t('records.type')}</th>
                <th scope="col">{t('records.asset')}</th>
                <th scope="col">{t('records.amount')}</th>
                <th scope="col">{t('records.status')}</th>
                <th scope="col">{t('records.reference')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((line) => {
                const sign = signOf(line.amount);
                return (
                  <tr key={`${line.entryId}-${line.asset}-${line.amount}`} data-entry={line.entryId}>
                    <td>
                      <time dateTime={line.createdAt}>
                        {formatDate(language, line.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
                      </time>
                    </td>
                    <td>
                      {ENTRY_KINDS.includes(line.kind as (typeof ENTRY_KINDS)[number])
                        ? t(`records.kind.${line.kind}`)
                        : line.kind}
                    </td>
                    <td>{line.asset}</td>
                    <td className={`num ${sign > 0 ? 'up' : sign < 0 ? 'down' : ''}`}>
                      <span className="visually-hidden">
                        {sign > 0 ? t('records.credit') : t('records.debit')}{' '}
                      </span>
                      {formatAmount(language, line.amount, SCALES[line.asset] ?? 2, { sign: true })}
                    </td>
                    <td>
                      {line.status === 'reversed' ? t('records.statusReversed') : t('records.statusPosted')}
                    </td>
                    <td className="muted">
                      {line.reversesEntryId
                        ? t('records.reverses', { id: line.reversesEntryId })
                        : (line.reference ?? '')}{' '}
                      · #{line.entryId}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ) : null}
      {query.hasNextPage ? (
        <button
          type="button"
          className="button ghost block"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {t('records.more')}
        </button>
      ) : items.length > 0 ? (
        <p className="muted center">{t('records.end')}</p>
      ) : null}
    </>
  );
}

export default function Transactions() {
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.transactions')}>
      <section className="card">
        <BookSwitch />
      </section>
      {user ? <Records userId={user.id} /> : null}
    </AccountPage>
  );
}
