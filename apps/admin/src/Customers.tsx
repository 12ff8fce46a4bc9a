import { adminCalls, type CustomerSummary } from '@swx/contract';
import { useId, useState } from 'react';
import { allowed, callAdmin, failureMessage } from './api.ts';
import { useBackOffice } from './context.ts';
import { Alert, Field, Pending, useLoadedItem } from './Field.tsx';
import { fill, formatTime } from './text.ts';

function Detail({ id, onBack }: { id: number; onBack: () => void }) {
  const { text, language, staff } = useBackOffice();
  const {
    item: detail,
    setItem: setDetail,
    failure,
    setFailure,
    heading,
  } = useLoadedItem(() => callAdmin('getCustomer', { params: { id } }), id, text.error.generic);
  const [done, setDone] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (!detail) return <Pending failure={failure} loading={text.loading} />;
  const mayLock = allowed(staff, adminCalls.lockCustomer);
  const locked = detail.status === 'locked';
  const act = async () => {
    if (reason.trim().length < 3) {
      setReasonError(text.error.reasonShort);
      return;
    }
    setReasonError(undefined);
    setBusy(true);
    setFailure('');
    try {
      const next = await callAdmin(locked ? 'unlockCustomer' : 'lockCustomer', {
        params: { id },
        body: { reason: reason.trim() },
      });
      setDetail(next);
      setReason('');
      setDone(locked ? text.customers.unlockedDone : text.customers.lockedDone);
    } catch (e) {
      setFailure(failureMessage(e, text.error.generic));
    } finally {
      setBusy(false);
    }
  };
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
  return (
    <section className="panel" aria-labelledby="customer-heading">
      <button type="button" className="link" onClick={onBack}>
        {text.customers.back}
      </button>
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
            void act();
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
          <Alert message={failure} />
          <div className="actions">
            <button type="submit" className={locked ? 'primary' : 'danger'} disabled={busy}>
              {locked ? text.customers.unlock : text.customers.lock}
            </button>
          </div>
        </form>
      ) : (
        <Alert message={failure} />
      )}
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
    </section>
  );
}

/** Customers: search by username, email or id; view one; lock or unlock with a reason. */
export function Customers() {
  const { text, language } = useBackOffice();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<CustomerSummary[] | null>(null);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const captionId = useId();
  const search = async (query: string) => {
    setBusy(true);
    setFailure('');
    try {
      setResults(await callAdmin('searchCustomers', { query: { q: query.trim() } }));
    } catch (e) {
      setFailure(failureMessage(e, text.error.generic));
    } finally {
      setBusy(false);
    }
  };
  if (open !== null)
    return (
      <Detail
        id={open}
        onBack={() => {
          setOpen(null);
          void search(q);
        }}
      />
    );
  return (
    <section className="panel" aria-labelledby={captionId}>
      <h2 id={captionId}>{text.customers.heading}</h2>
      <form
        className="search"
        onSubmit={(event) => {
          event.preventDefault();
          void search(q);
        }}
      >
        <Field
          label={text.customers.searchLabel}
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {text.customers.search}
        </button>
      </form>
      <Alert message={failure} />
      {busy ? (
        <p role="status" className="muted">
          {text.loading}
        </p>
      ) : null}
      {results && results.length === 0 ? <p className="muted">{text.customers.none}</p> : null}
      {results && results.length > 0 ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{text.customers.id}</th>
                <th scope="col">{text.customers.userName}</th>
                <th scope="col">{text.customers.email}</th>
                <th scope="col">{text.customers.status}</th>
                <th scope="col">{text.customers.kyc}</th>
                <th scope="col">{text.customers.created}</th>
                <th scope="col">
                  <span className="visually-hidden">{text.customers.view}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {results.map((c) => (
                <tr key={c.id}>
                  <td>{c.id}</td>
                  <td>{c.userName}</td>
                  <td>{c.email ?? '—'}</td>
                  <td>{c.status === 'locked' ? text.customers.locked : text.customers.active}</td>
                  <td>{text.kyc[c.kycState]}</td>
                  <td>{formatTime(language, c.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => setOpen(c.id)}
                      aria-label={`${text.customers.view} ${c.userName}`}
                    >
                      {text.customers.view}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
