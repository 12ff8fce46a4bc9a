import { type KycQueueItem, type KycReview, kycReviewCalls, LANGUAGE_TAGS } from '@swx/contract';
import { fetchKycPhoto } from './api.ts';
import { useBackOffice } from './context.ts';
import { textColumn, timeColumn } from './DataTable.tsx';
import { Photo } from './Photo.tsx';
import { keys } from './query.ts';
import { type Reviewed, type ReviewKind, reviewScreens } from './review/ReviewQueue.tsx';
import { fill, formatTime } from './text.ts';

/** A verification's fields and photos, on its review page. */
function KycDetails({ item: review }: { item: Reviewed<KycReview> }) {
  const { text, language } = useBackOffice();
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
    <>
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
          <Photo key={p.id} load={() => fetchKycPhoto(p.id)} label={text.kyc[p.side]} />
        ))}
      </div>
    </>
  );
}

const documentName = (text: ReturnType<typeof useBackOffice>['text'], type: string) =>
  text.kyc[type as 'idCard' | 'driverLicence' | 'passport'] ?? type;

/** KYC on the review queue screen: compliance claims and decides, admin may read. */
const kyc: ReviewKind<KycQueueItem, KycReview> = {
  calls: kycReviewCalls,
  base: '/kyc',
  root: keys.kyc[0],
  alsoChanges: [keys.customers],
  words: ({ text }) => ({
    heading: text.kyc.heading,
    empty: text.kyc.empty,
    item: text.kyc.detailHeading,
    open: text.kyc.open,
    approved: text.kyc.approved,
    rejected: text.kyc.rejected,
    onlyDeciders: text.kyc.onlyCompliance,
  }),
  columns: ({ text, language }) => [
    textColumn('customer', text.kyc.customer, (i) => i.userName),
    textColumn('name', text.kyc.name, (i) => i.name),
    textColumn('document', text.kyc.document, (i) => documentName(text, i.documentType)),
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
  ],
  rowName: (i) => i.userName,
  filterText: (i) => `${i.userName} ${i.name}`,
  Details: KycDetails,
  testId: 'kyc-table',
};

/**
 * The KYC review queue (/admin/kyc): pending verifications, oldest first, with their due time; one
 * verification (/admin/kyc/:id): its review, fields and photos.
 */
export const { Queue: KycQueue, Item: KycReviewPage } = reviewScreens(kyc);
