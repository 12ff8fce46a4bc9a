import { adminCalls, type CustomerOverview } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { allowed, callAdmin, failureMessage } from './api.ts';
import { CustomerTables } from './CustomerTables.tsx';
import { useBackOffice } from './context.ts';
import { Alert, Done, Pending } from './Field.tsx';
import { ReasonField, useFocusOnLoad, useReason } from './KitScreen.tsx';
import { keys } from './query.ts';
import { fill, formatTime } from './text.ts';

type Detail = CustomerOverview['customer'];

/** The account: name, email, status (locked or active), KYC, credit score, sessions, language, since. */
function AccountFacts({ detail }: { detail: Detail }) {
  const { text, language } = useBackOffice();
  const c = text.customers;
  const rows: [string, string][] = [
    [c.userName, detail.userName],
    [c.email, detail.email ?? '—'],
    [c.status, detail.status === 'locked' ? c.locked : c.active],
    [c.kyc, text.kyc[detail.kycState]],
    [c.creditScore, String(detail.creditScore)],
    [c.liveSessions, String(detail.liveSessions)],
    [c.language, detail.language],
    [c.created, formatTime(language, detail.createdAt)],
  ];
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd data-testid={label === c.status ? 'customer-status' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Lock or unlock with a reason; the answer is the customer as they are now, shown at once. */
function LockForm({ id, detail }: { id: number; detail: Detail }) {
  const { text, language } = useBackOffice();
  const client = useQueryClient();
  const reason = useReason(text.error.reasonShort);
  const [done, setDone] = useState('');
  const locked = detail.status === 'locked';
  const lock = useMutation({
    mutationFn: (input: { locked: boolean; reason: string }) =>
      callAdmin(input.locked ? 'unlockCustomer' : 'lockCustomer', {
        params: { id },
        body: { reason: input.reason },
      }),
    onSuccess: async (next, input) => {
      // The rest of the page is reloaded.
      client.setQueryData(keys.customer(language, id), (old: CustomerOverview | undefined) =>
        old ? { ...old, customer: next } : old,
      );
      reason.setValue('');
      setDone(input.locked ? text.customers.unlockedDone : text.customers.lockedDone);
      await client.invalidateQueries({ queryKey: keys.customers });
    },
  });
  return (
    <>
      <Done message={done} />
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const given = reason.checked();
          if (given === null) return;
          setDone('');
          lock.mutate({ locked, reason: given });
        }}
      >
        <p className="muted">{text.customers.lockHint}</p>
        <ReasonField label={text.customers.reason} reason={reason} />
        <Alert message={lock.isError ? failureMessage(lock.error, text.error.generic) : ''} />
        <div className="actions">
          <button type="submit" className={locked ? 'primary' : 'danger'} disabled={lock.isPending}>
            {locked ? text.customers.unlock : text.customers.lock}
          </button>
        </div>
      </form>
    </>
  );
}

/** Who locked or unlocked the account, when and why. */
function LockHistory({ history }: { history: Detail['history'] }) {
  const { text, language } = useBackOffice();
  return (
    <>
      <h3>{text.customers.history}</h3>
      {history.length === 0 ? (
        <p className="muted">{text.customers.historyEmpty}</p>
      ) : (
        <ul className="history">
          {history.map((h) => (
            <li key={`${h.at}-${h.action}`}>
              <strong>{h.action === 'lock' ? text.customers.actionLock : text.customers.actionUnlock}</strong>{' '}
              · {formatTime(language, h.at)} · {h.staffEmail} — {h.reason}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The customer's identity verification: its state, when, who reviewed it, and a link to its review. */
function KycSummary({ kyc }: { kyc: CustomerOverview['kyc'] }) {
  const { text, language, staff } = useBackOffice();
  const t = text.customer;
  if (!kyc) return <p className="muted">{t.kycNone}</p>;
  const rows: [string, string, string?][] = [
    [text.kyc.status, text.kyc[kyc.status]],
    [text.kyc.submitted, formatTime(language, kyc.submittedAt)],
    [
      t.reviewer,
      kyc.reviewedAt
        ? fill(text.kyc.reviewedBy, {
            who: kyc.reviewer?.email ?? '—',
            when: formatTime(language, kyc.reviewedAt),
          })
        : t.notReviewed,
      'kyc-reviewer',
    ],
    ...(kyc.reason ? ([[text.customers.reason, kyc.reason]] as [string, string][]) : []),
  ];
  return (
    <div className="stack">
      <dl className="facts">
        {rows.map(([label, value, testId]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      {allowed(staff, adminCalls.getKyc) ? <Link to={`/kyc/${kyc.id}`}>{t.openReview}</Link> : null}
    </div>
  );
}

/** The link back to the list, to the search it came from. */
function BackToCustomers() {
  const { text } = useBackOffice();
  const [params] = useSearchParams();
  const q = params.get('q');
  return (
    <Link className="back" to={q ? `/customers?q=${encodeURIComponent(q)}` : '/customers'}>
      {text.customers.back}
    </Link>
  );
}

/**
 * One customer on one page (/admin/customers/:id): account and lock history, balances in both
 * books, positions, recent ledger entries, live sessions and identity verification; lock or unlock
 * with a reason.
 */
export function CustomerPage() {
  const { text, language, staff } = useBackOffice();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const overview = useQuery({
    queryKey: keys.customer(language, id),
    queryFn: () => callAdmin('customerOverview', { params: { id } }),
    enabled: valid,
  });
  const heading = useFocusOnLoad(overview.data !== undefined);
  const data = overview.data;
  if (!valid || !data)
    return (
      <section className="panel">
        <BackToCustomers />
        {valid ? (
          <Pending
            failure={overview.isError ? failureMessage(overview.error, text.error.generic) : ''}
            loading={text.loading}
          />
        ) : (
          <Alert message={text.notFound} />
        )}
      </section>
    );
  const detail = data.customer;
  return (
    <section className="panel" aria-labelledby="customer-heading">
      <BackToCustomers />
      <h2 id="customer-heading" ref={heading} tabIndex={-1}>
        {fill(text.customers.detailHeading, { id: detail.id })}
      </h2>
      <AccountFacts detail={detail} />
      {allowed(staff, adminCalls.lockCustomer) ? <LockForm id={id} detail={detail} /> : null}
      <LockHistory history={detail.history} />
      <h3>{text.customer.kycHeading}</h3>
      <KycSummary kyc={data.kyc} />
      <CustomerTables data={data} />
    </section>
  );
}
