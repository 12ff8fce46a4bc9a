import { adminCalls, type KycQueueItem, LANGUAGE_TAGS, type PhotoSide } from '@swx/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { allowed, callAdmin, failureMessage, fetchKycPhoto } from './api.ts';
import { useBackOffice } from './context.ts';
import { Alert, Field, Pending, useLoadedItem } from './Field.tsx';
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

function Review({ id, onBack }: { id: number; onBack: () => void }) {
  const { text, language, staff } = useBackOffice();
  const {
    item: review,
    setItem: setReview,
    failure,
    setFailure,
    heading,
  } = useLoadedItem(() => callAdmin('getKyc', { params: { id } }), id, text.error.generic);
  const [done, setDone] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (!review) return <Pending failure={failure} loading={text.loading} />;
  const mayDecide = allowed(staff, adminCalls.approveKyc);
  const decide = async (approve: boolean) => {
    if (!approve && reason.trim().length < 3) {
      setReasonError(text.error.reasonShort);
      return;
    }
    setReasonError(undefined);
    setBusy(true);
    setFailure('');
    try {
      const next = approve
        ? await callAdmin('approveKyc', { params: { id } })
        : await callAdmin('rejectKyc', { params: { id }, body: { reason: reason.trim() } });
      setReview(next);
      setDone(approve ? text.kyc.approved : text.kyc.rejected);
    } catch (e) {
      setFailure(failureMessage(e, text.error.generic));
    } finally {
      setBusy(false);
    }
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
      <button type="button" className="link" onClick={onBack}>
        {text.kyc.backToQueue}
      </button>
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
            who: review.reviewedBy ?? '',
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
              void decide(false);
            }}
          >
            <div className="actions">
              <button type="button" className="primary" disabled={busy} onClick={() => void decide(true)}>
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
  const [items, setItems] = useState<KycQueueItem[] | null>(null);
  const [failure, setFailure] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const headingId = useId();
  const load = () => {
    setFailure('');
    callAdmin('kycQueue')
      .then(setItems)
      .catch((e: unknown) => setFailure(failureMessage(e, text.error.generic)));
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, and again on return from a review
  useEffect(load, [open]);
  if (open !== null) return <Review id={open} onBack={() => setOpen(null)} />;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{text.kyc.heading}</h2>
      <Alert message={failure} />
      {items === null && !failure ? (
        <p role="status" className="muted">
          {text.loading}
        </p>
      ) : null}
      {items && items.length === 0 ? <p className="muted">{text.kyc.empty}</p> : null}
      {items && items.length > 0 ? (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{text.kyc.customer}</th>
                <th scope="col">{text.kyc.name}</th>
                <th scope="col">{text.kyc.document}</th>
                <th scope="col">{text.kyc.submitted}</th>
                <th scope="col">{text.kyc.due}</th>
                <th scope="col">
                  <span className="visually-hidden">{text.kyc.open}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td>{item.userName}</td>
                  <td>{item.name}</td>
                  <td>
                    {text.kyc[item.documentType as 'idCard' | 'driverLicence' | 'passport'] ??
                      item.documentType}
                  </td>
                  <td>{formatTime(language, item.submittedAt)}</td>
                  <td>
                    {formatTime(language, item.dueAt)}
                    {item.overdue ? <strong className="overdue"> {text.kyc.overdue}</strong> : null}
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={() => setOpen(item.id)}
                      aria-label={`${text.kyc.open} ${item.userName}`}
                    >
                      {text.kyc.open}
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
