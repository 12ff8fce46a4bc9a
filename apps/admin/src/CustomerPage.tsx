import { adminCalls, type CustomerOverview } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { allowed, callAdmin, failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { Amount, type Column, DataTable, timeColumn } from './DataTable.tsx';
import { Alert, Field, Pending } from './Field.tsx';
import { keys } from './query.ts';
import { fill, formatTime } from './text.ts';

type Balance = CustomerOverview['balances'][number];
type Position = CustomerOverview['positions'][number];
type Entry = CustomerOverview['transactions'][number];
type Session = CustomerOverview['sessions'][number];

/**
 * One customer on one page (/admin/customers/:id): account and lock history, balances in both
 * books, positions, recent ledger entries, live sessions and identity verification; lock or unlock
 * with a reason.
 */
export function CustomerPage() {
  const { text, language, staff } = useBackOffice();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const [params] = useSearchParams();
  const client = useQueryClient();
  const overview = useQuery({
    queryKey: keys.customer(language, id),
    queryFn: () => callAdmin('customerOverview', { params: { id } }),
    enabled: valid,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = overview.data !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [done, setDone] = useState('');
  const lock = useMutation({
    mutationFn: (input: { locked: boolean; reason: string }) =>
      callAdmin(input.locked ? 'unlockCustomer' : 'lockCustomer', {
        params: { id },
        body: { reason: input.reason },
      }),
    onSuccess: async (detail, input) => {
      // The answer is the customer as they are now: shown at once, the rest of the page reloaded.
      client.setQueryData(keys.customer(language, id), (old: CustomerOverview | undefined) =>
        old ? { ...old, customer: detail } : old,
      );
      setReason('');
      setDone(input.locked ? text.customers.unlockedDone : text.customers.lockedDone);
      await client.invalidateQueries({ queryKey: keys.customers });
    },
  });
  const back = (
    <Link
      className="back"
      to={params.get('q') ? `/customers?q=${encodeURIComponent(params.get('q') ?? '')}` : '/customers'}
    >
      {text.customers.back}
    </Link>
  );
  if (!valid)
    return (
      <section className="panel">
        {back}
        <Alert message={text.notFound} />
      </section>
    );
  const data = overview.data;
  if (!data)
    return (
      <section className="panel">
        {back}
        <Pending
          failure={overview.isError ? failureMessage(overview.error, text.error.generic) : ''}
          loading={text.loading}
        />
      </section>
    );
  const detail = data.customer;
  const locked = detail.status === 'locked';
  const mayLock = allowed(staff, adminCalls.lockCustomer);
  const t = text.customer;
  const bookName = (book: 'demo' | 'live') => (book === 'live' ? t.live : t.demo);
  const rows: [string, string][] = [
    [text.customers.userName, detail.userName],
    [text.customers.email, detail.email ?? '—'],
    [text.customers.status, locked ? text.customers.locked : text.customers.active],
    [text.customers.kyc, text.kyc[detail.kycState]],
    [text.customers.creditScore, String(detail.creditScore)],
    [text.customers.liveSessions, String(detail.liveSessions)],
    [text.customers.language, detail.language],
    [text.customers.created, formatTime(language, detail.createdAt)],
  ];
  const balanceColumns: Column<Balance>[] = [
    { key: 'book', header: t.book, cell: (b) => bookName(b.book), sortValue: (b) => b.book },
    { key: 'asset', header: t.asset, cell: (b) => b.asset, sortValue: (b) => b.asset },
    { key: 'balance', header: t.balance, cell: (b) => <Amount value={b.balance} /> },
    { key: 'held', header: t.held, cell: (b) => <Amount value={b.held} /> },
    { key: 'available', header: t.available, cell: (b) => <Amount value={b.available} /> },
  ];
  const positionColumns: Column<Position>[] = [
    { key: 'orderNo', header: t.orderNo, cell: (p) => p.orderNo, sortValue: (p) => p.orderNo },
    { key: 'book', header: t.book, cell: (p) => bookName(p.book), sortValue: (p) => p.book },
    { key: 'code', header: t.instrument, cell: (p) => p.code, sortValue: (p) => p.code },
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
    { key: 'margin', header: t.margin, cell: (p) => <Amount value={p.margin} /> },
    { key: 'profit', header: t.result, cell: (p) => <Amount value={p.profit} /> },
    {
      key: 'status',
      header: t.status,
      cell: (p) => (p.status === 'open' ? t.open : t.closed),
      sortValue: (p) => p.status,
    },
    timeColumn('opened', t.opened, language, (p) => p.openTime),
  ];
  const entryColumns: Column<Entry>[] = [
    timeColumn('time', t.time, language, (e) => e.createdAt),
    { key: 'entry', header: t.entry, cell: (e) => e.entryId, sortValue: (e) => e.entryId },
    { key: 'book', header: t.book, cell: (e) => bookName(e.book), sortValue: (e) => e.book },
    { key: 'kind', header: t.kind, cell: (e) => <code>{e.kind}</code>, sortValue: (e) => e.kind },
    {
      key: 'account',
      header: t.account,
      cell: (e) => <code>{e.accountKind}</code>,
      sortValue: (e) => e.accountKind,
    },
    { key: 'amount', header: t.amount, cell: (e) => <Amount value={`${e.amount} ${e.asset}`} /> },
    { key: 'reference', header: t.reference, cell: (e) => e.reference ?? '—' },
  ];
  const sessionColumns: Column<Session>[] = [
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
  const submit = () => {
    if (reason.trim().length < 3) {
      setReasonError(text.error.reasonShort);
      return;
    }
    setReasonError(undefined);
    setDone('');
    lock.mutate({ locked, reason: reason.trim() });
  };
  const kyc = data.kyc;
  return (
    <section className="panel" aria-labelledby="customer-heading">
      {back}
      <h2 id="customer-heading" ref={heading} tabIndex={-1}>
        {fill(text.customers.detailHeading, { id: detail.id })}
      </h2>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={label === text.customers.status ? 'customer-status' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {mayLock ? (
        <form
          className="stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <p className="muted">{text.customers.lockHint}</p>
          <Field
            label={text.customers.reason}
            value={reason}
            maxLength={500}
            error={reasonError}
            onChange={(e) => setReason(e.target.value)}
          />
          <Alert message={lock.isError ? failureMessage(lock.error, text.error.generic) : ''} />
          <div className="actions">
            <button type="submit" className={locked ? 'primary' : 'danger'} disabled={lock.isPending}>
              {locked ? text.customers.unlock : text.customers.lock}
            </button>
          </div>
        </form>
      ) : null}
      <h3>{text.customers.history}</h3>
      {detail.history.length === 0 ? (
        <p className="muted">{text.customers.historyEmpty}</p>
      ) : (
        <ul className="history">
          {detail.history.map((h) => (
            <li key={`${h.at}-${h.action}`}>
              <strong>{h.action === 'lock' ? text.customers.actionLock : text.customers.actionUnlock}</strong>{' '}
              · {formatTime(language, h.at)} · {h.staffEmail} — {h.reason}
            </li>
          ))}
        </ul>
      )}
      <h3>{t.kycHeading}</h3>
      {kyc ? (
        <div className="stack">
          <dl className="facts">
            <div>
              <dt>{text.kyc.status}</dt>
              <dd>{text.kyc[kyc.status]}</dd>
            </div>
            <div>
              <dt>{text.kyc.submitted}</dt>
              <dd>{formatTime(language, kyc.submittedAt)}</dd>
            </div>
            <div>
              <dt>{t.reviewer}</dt>
              <dd data-testid="kyc-reviewer">
                {kyc.reviewedAt
                  ? fill(text.kyc.reviewedBy, {
                      who: kyc.reviewer?.email ?? '—',
                      when: formatTime(language, kyc.reviewedAt),
                    })
                  : t.notReviewed}
              </dd>
            </div>
            {kyc.reason ? (
              <div>
                <dt>{text.customers.reason}</dt>
                <dd>{kyc.reason}</dd>
              </div>
            ) : null}
          </dl>
          {allowed(staff, adminCalls.getKyc) ? <Link to={`/kyc/${kyc.id}`}>{t.openReview}</Link> : null}
        </div>
      ) : (
        <p className="muted">{t.kycNone}</p>
      )}
      <h3>{t.balances}</h3>
      <DataTable
        caption={t.balances}
        columns={balanceColumns}
        rows={data.balances}
        rowKey={(b) => `${b.book}-${b.asset}`}
        loading={false}
        failure=""
        empty={t.balancesEmpty}
        testId="customer-balances"
      />
      <h3>{t.positions}</h3>
      <DataTable
        caption={t.positions}
        columns={positionColumns}
        rows={data.positions}
        rowKey={(p) => p.id}
        loading={false}
        failure=""
        empty={t.positionsEmpty}
        filterText={(p) => `${p.orderNo} ${p.code}`}
      />
      <h3>{t.transactions}</h3>
      <DataTable
        caption={t.transactions}
        columns={entryColumns}
        rows={data.transactions}
        rowKey={(e) => `${e.book}-${e.entryId}-${e.accountKind}-${e.asset}`}
        loading={false}
        failure=""
        empty={t.transactionsEmpty}
        filterText={(e) => `${e.entryId} ${e.kind} ${e.asset} ${e.reference ?? ''}`}
        testId="customer-transactions"
      />
      <h3>{t.sessions}</h3>
      <DataTable
        caption={t.sessions}
        columns={sessionColumns}
        rows={data.sessions}
        rowKey={(s) => s.id}
        loading={false}
        failure=""
        empty={t.sessionsEmpty}
        testId="customer-sessions"
      />
    </section>
  );
}
