import { adminCalls, type KycQueueItem, LANGUAGE_TAGS, type PhotoSide } from '@swx/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { allowed, callAdmin, failureMessage, fetchKycPhoto } from './api.ts';
import { useBackOffice } from './context.ts';
import { type Column, DataTable, timeColumn } from './DataTable.tsx';
import { Alert, Field, Pending } from './Field.tsx';
import { keys } from './query.ts';
import { fill, formatTime } from './text.ts';

/** One photo: a thumbnail that opens a larger view in a modal dialog. */
function Photo({ id, side }: { id: string; side: PhotoSide }) {
  const { text } = useBackOffice();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    fetchKycPhoto(id)
      .then((u) => {
        made = u;
        if (!cancelled) setUrl(u);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);
  const label = text.kyc[side];
  return (
    <figure className="photo">
      {url ? (
        <button
          type="button"
          className="thumb"
          onClick={() => dialog.current?.showModal()}
          aria-label={fill(text.kyc.enlarge, { side: label })}
        >
          <img src={url} alt={label} />
        </button>
      ) : (
        <p className="muted">{failed ? text.kyc.photoFailed : text.loading}</p>
      )}
      <figcaption>{label}</figcaption>
      <dialog ref={dialog} className="viewer" aria-label={label}>
        {url ? <img src={url} alt={label} /> : null}
        <form method="dialog">
          <button type="submit" className="primary">
            {text.kyc.close}
          </button>
        </form>
      </dialog>
    </figure>
  );
}

/** One verification (/admin/kyc/:id): its fields and photos; compliance approves or rejects. */
export function KycReviewPage() {
  const { text, language, staff } = useBackOffice();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const client = useQueryClient();
  const query = useQuery({
    queryKey: keys.kycReview(language, id),
    queryFn: () => callAdmin('getKyc', { params: { id } }),
    enabled: valid,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = query.data !== undefined;
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  const [done, setDone] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const decision = useMutation({
    mutationFn: (input: { approve: boolean; reason: string }) =>
      input.approve
        ? callAdmin('approveKyc', { params: { id } })
        : callAdmin('rejectKyc', { params: { id }, body: { reason: input.reason } }),
    onSuccess: async (next, input) => {
      client.setQueryData(keys.kycReview(language, id), next);
      setDone(input.approve ? text.kyc.approved : text.kyc.rejected);
      await client.invalidateQueries({ queryKey: keys.kyc });
      await client.invalidateQueries({ queryKey: keys.customers });
    },
  });
  const back = (
    <Link className="back" to="/kyc">
      {text.kyc.backToQueue}
    </Link>
  );
  const review = query.data;
  if (!valid || !review)
    return (
      <section className="panel">
        {back}
        <Pending
          failure={
            !valid ? text.notFound : query.isError ? failureMessage(query.error, text.error.generic) : ''
          }
          loading={text.loading}
        />
      </section>
    );
  const failure = decision.isError ? failureMessage(decision.error, text.error.generic) : '';
  const busy = decision.isPending;
  const mayDecide = allowed(staff, adminCalls.approveKyc);
  const decide = (approve: boolean) => {
    if (!approve && reason.trim().length < 3) {
      setReasonError(text.error.reasonShort);
      return;
    }
    setReasonError(undefined);
    setDone('');
    decision.mutate({ approve, reason: reason.trim() });
  };
  const d = review.details;
  const country =
    new Intl.DisplayNames([LANGUAGE_TAGS[language]], { type: 'region' }).of(d.country) ?? d.country;
  const rows: [string, string][] = [
    [text.kyc.customer, `${review.userName} (#${review.userId})`],
    [text.kyc.firstName, d.firstName],
    [text.kyc.lastName, d.lastName],
    [text.kyc.birthdate, d.birthdate],
    [text.kyc.sex, text.kyc[d.sex]],
    [text.kyc.country, country],
    [text.kyc.address, d.address],
    [text.kyc.phone, `${d.phoneCode} ${d.phone}`],
    [text.kyc.documentType, text.kyc[d.documentType]],
    [text.kyc.submitted, formatTime(language, review.submittedAt)],
    [text.kyc.due, formatTime(language, review.dueAt)],
    [text.kyc.status, text.kyc[review.status]],
  ];
  return (
    <section className="panel" aria-labelledby="kyc-heading">
      {back}
      <h2 id="kyc-heading" ref={heading} tabIndex={-1}>
        {fill(text.kyc.detailHeading, { id: review.id })}
      </h2>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={label === text.kyc.status ? 'kyc-status' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      {review.reviewedAt ? (
        <p className="muted">
          {fill(text.kyc.reviewedBy, {
            who: review.reviewer?.email ?? review.reviewedBy ?? '',
            when: formatTime(language, review.reviewedAt),
          })}
          {review.reason ? ` — ${review.reason}` : ''}
        </p>
      ) : null}
      <h3>{text.kyc.photos}</h3>
      <div className="photos">
        {d.photos.map((p) => (
          <Photo key={p.id} id={p.id} side={p.side} />
        ))}
      </div>
      {done ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {review.status === 'pending' ? (
        mayDecide ? (
          <form
            className="stack"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              decide(false);
            }}
          >
            <div className="actions">
              <button type="button" className="primary" disabled={busy} onClick={() => decide(true)}>
                {text.kyc.approve}
              </button>
            </div>
            <Field
              label={text.kyc.rejectReason}
              value={reason}
              maxLength={500}
              error={reasonError}
              onChange={(e) => setReason(e.target.value)}
            />
            <Alert message={failure} />
            <div className="actions">
              <button type="submit" className="danger" disabled={busy}>
                {text.kyc.reject}
              </button>
            </div>
          </form>
        ) : (
          <p className="muted">{text.kyc.onlyCompliance}</p>
        )
      ) : (
        <Alert message={failure} />
      )}
    </section>
  );
}

/** The KYC review queue: pending verifications, oldest first, with their 48-hour due time. */
export function KycQueue() {
  const { text, language } = useBackOffice();
  const headingId = useId();
  const query = useQuery({ queryKey: keys.kycQueue(language), queryFn: () => callAdmin('kycQueue') });
  const documentName = (type: string) => text.kyc[type as 'idCard' | 'driverLicence' | 'passport'] ?? type;
  const columns: Column<KycQueueItem>[] = [
    { key: 'customer', header: text.kyc.customer, cell: (i) => i.userName, sortValue: (i) => i.userName },
    { key: 'name', header: text.kyc.name, cell: (i) => i.name, sortValue: (i) => i.name },
    {
      key: 'document',
      header: text.kyc.document,
      cell: (i) => documentName(i.documentType),
      sortValue: (i) => documentName(i.documentType),
    },
    timeColumn('submitted', text.kyc.submitted, language, (i) => i.submittedAt),
    {
      key: 'due',
      header: text.kyc.due,
      cell: (i) => (
        <>
          {formatTime(language, i.dueAt)}
          {i.overdue ? <strong className="overdue"> {text.kyc.overdue}</strong> : null}
        </>
      ),
      sortValue: (i) => i.dueAt,
    },
    {
      key: 'open',
      header: text.kyc.open,
      hiddenHeader: true,
      cell: (i) => (
        <Link to={`/kyc/${i.id}`} aria-label={`${text.kyc.open} ${i.userName}`}>
          {text.kyc.open}
        </Link>
      ),
    },
  ];
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {text.kyc.heading}
      </h2>
      <DataTable
        caption={text.kyc.heading}
        columns={columns}
        rows={query.data}
        rowKey={(i) => i.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={text.kyc.empty}
        filterText={(i) => `${i.userName} ${i.name}`}
      />
    </section>
  );
}
