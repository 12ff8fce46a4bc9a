import { CLOSE_REASONS, ENTRY_KINDS, type Language, type TransactionLine } from '@swx/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { use, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, downloadFile } from '../../app/api.ts';
import { formatDate } from '../../app/i18n.ts';
import { formatMoney, signOf } from '../../app/money.ts';
import { useClientState } from '../../app/state.ts';
import { BookSwitch } from '../../shell/BookSwitch.tsx';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { StatementDownload } from '../papers/Statements.tsx';
import { ledgerQueries, type TransactionFilter } from './queries.ts';
import './ledger.css';
import { Empty, Failed, Loading } from '../../ui/PageState.tsx';
import { ledgerTexts } from './texts.ts';

const ASSETS = ['USDT', 'USDC', 'BTC', 'ETH'] as const;

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
        <select className="control" value={draft.kind ?? ''} onChange={set('kind')} name="kind">
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
        <select className="control" value={draft.asset ?? ''} onChange={set('asset')} name="asset">
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
        <input className="control" type="date" value={draft.from ?? ''} onChange={set('from')} name="from" />
      </label>
      <label>
        {t('records.to')}
        <input className="control" type="date" value={draft.to ?? ''} onChange={set('to')} name="to" />
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

/** The event in the customer's words, from the structured fields: "Opened SWX000000001: …". */
function eventText(t: TFunction, language: Language, line: TransactionLine): string {
  // Each figure is a left-to-right isolate, so a sign stays on its number inside Arabic text.
  const money = (value: string | null, sign = false) =>
    `\u2066${formatMoney(language, value ?? '0', line.asset, { sign })}\u2069`;
  const released = line.margin === null ? '0' : line.margin.replace(/^-/, '');
  if (line.kind === 'trade_margin' && line.orderNo)
    return t('records.line.opened', {
      order: line.orderNo,
      margin: money(line.margin),
      fee: money(line.fee),
    });
  if (line.kind === 'trade_pnl' && line.orderNo) {
    const values = { order: line.orderNo, result: money(line.result, true), margin: money(released) };
    return (CLOSE_REASONS as readonly string[]).includes(line.closeReason ?? '')
      ? t('records.line.closedBy', { ...values, reason: t(`closeReason.${line.closeReason}`) })
      : t('records.line.closed', values);
  }
  if (line.kind === 'swap' && line.swap) {
    const { swap } = line;
    const of = (value: string, asset: string) =>
      `\u2066${formatMoney(language, value, asset)} ${asset}\u2069`;
    return t('records.line.swap', {
      paid: of(swap.amount, swap.from),
      received: of(swap.receive, swap.to),
      fee: of(swap.fee, swap.to),
    });
  }
  if (line.reversesEntryId !== null) return t('records.line.reversal', { id: line.reversesEntryId });
  return ENTRY_KINDS.includes(line.kind as (typeof ENTRY_KINDS)[number])
    ? t(`records.kind.${line.kind}`)
    : line.kind;
}

const ACCOUNTS = [
  'wallet',
  'margin',
  'fees',
  'house_pnl',
  'demo_issuance',
  'yield_reserve',
  'charity',
  'loans_receivable',
  'pending_withdrawals',
  'external_clearing',
  'counterparty',
  'earn',
  'smart',
  'loan',
];

/** A product's own platform account (`earn_reserve_7`, `loan_pool_1`): its kind's name, the number dropped. */
function accountName(t: TFunction, account: string): string {
  if (ACCOUNTS.includes(account)) return t(`records.accounts.${account}`);
  const product = /^(earn_reserve|earn_owed|loan_pool|loan_unearned|loan_income)_\d+$/.exec(account);
  return product ? t(`records.accounts.${product[1]}`) : account;
}

/** One economic event: what happened and what it changed, its time and state; the postings one click away. */
function RecordRow({ line }: { line: TransactionLine }) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  return (
    <li className="record card" data-entry={line.entryId} data-kind={line.kind}>
      <div className="record-head">
        <p className="record-what">{eventText(t, language, line)}</p>
        <p className="record-change">
          {line.changes.map((change) => {
            const sign = signOf(change.amount);
            return (
              <span
                key={change.asset}
                className={`num ${sign > 0 ? 'up' : sign < 0 ? 'down' : ''}`}
                data-asset={change.asset}
              >
                <span className="visually-hidden">
                  {sign > 0 ? t('records.credit') : t('records.debit')}{' '}
                </span>
                <bdi>
                  {formatMoney(language, change.amount, change.asset, { sign: true })} {change.asset}
                </bdi>
              </span>
            );
          })}
        </p>
      </div>
      <p className="record-meta muted small">
        <time dateTime={line.createdAt}>
          {formatDate(language, line.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
        </time>
        {line.instrument ? <span>{line.instrument}</span> : null}
        <span>{line.status === 'reversed' ? t('records.statusReversed') : t('records.statusPosted')}</span>
      </p>
      <details className="record-postings">
        <summary>
          {t('records.postings')} <span className="muted">· {t('records.entry', { id: line.entryId })}</span>
        </summary>
        <p className="muted small">{t('records.postingsNote')}</p>
        <table className="postings">
          <thead>
            <tr>
              <th scope="col">{t('records.accountHeader')}</th>
              <th scope="col" className="num">
                {t('records.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {line.postings.map((posting) => (
              <tr
                key={`${posting.account}-${posting.asset}-${posting.amount}`}
                data-account={posting.account}
              >
                <th scope="row">{accountName(t, posting.account)}</th>
                <td className="num">
                  <bdi>
                    {formatMoney(language, posting.amount, posting.asset, { sign: true })} {posting.asset}
                  </bdi>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </li>
  );
}

function Records({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const book = useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
  const [filter, setFilter] = useState<TransactionFilter>({});
  const [exportError, setExportError] = useState('');
  const query = useInfiniteQuery(ledgerQueries.transactions(userId, book, filter));
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
        <ol className="records" aria-label={t('title.transactions')}>
          {items.map((line) => (
            <RecordRow key={line.entryId} line={line} />
          ))}
        </ol>
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
  use(ledgerTexts);
  const { t } = useTranslation();
  const user = useClientState((s) => s.userInfo);
  return (
    <AccountPage title={t('title.transactions')} book>
      <section className="card">
        <BookSwitch />
      </section>
      {user ? <StatementDownload more /> : null}
      {user ? <Records userId={user.id} /> : null}
    </AccountPage>
  );
}
