import {
  ASSET_SCALES,
  adminCalls,
  LOAN_WITHDRAWAL_DAYS,
  type LoanApplicationItem,
  type LoanApplicationListItem,
  loanApplicationReviewCalls,
  parseMinor,
} from '@swx/contract';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { allowed, fetchLoanAgreement, fetchUpload } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { plain, timeColumn } from '../DataTable.tsx';
import { Code, Facts } from '../Facts.tsx';
import { Alert } from '../Field.tsx';
import { Money, Percent } from '../KitProductList.tsx';
import { Photo } from '../Photo.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { oneApprovalReason } from '../review/fourEyes.ts';
import {
  type Reviewed,
  ReviewItemScreen,
  type ReviewKind,
  ReviewQueueScreen,
} from '../review/ReviewQueue.tsx';
import { fill, formatTime } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';
import { LOAN_TEXT, type LoanText } from './loans.text.ts';

/** Is the pool's free balance below the amount (both of the asset)? */
function poolTooSmall(item: LoanApplicationItem): boolean {
  try {
    const scale = ASSET_SCALES[item.asset];
    return parseMinor(item.poolAvailable, scale) < parseMinor(item.amount, scale);
  } catch {
    return false;
  }
}

/** Downloads the signed agreement with the staff token (a plain link could not send it). */
function AgreementDownload({ loanId }: { loanId: number }) {
  const t = useLoanText();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const download = async () => {
    setBusy(true);
    setFailed(false);
    try {
      const url = await fetchLoanAgreement(loanId);
      const link = document.createElement('a');
      link.href = url;
      link.download = `loan-agreement-${loanId}.pdf`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack">
      <div className="actions">
        <button type="button" onClick={() => void download()} disabled={busy} data-testid="agreement-pdf">
          {t.agreementPdf}
        </button>
      </div>
      <Alert message={failed ? t.agreementFailed : ''} />
    </div>
  );
}

/**
 * A loan application on its review page: the customer (identity verification, credit score), the
 * figures of the information sheet the customer signed, the pool that would pay it out, and the
 * signed agreement (the drawn signature and the PDF with its SHA-256).
 */
function ApplicationDetails({ item }: { item: Reviewed<LoanApplicationItem> }) {
  const { language, staff, text } = useBackOffice();
  const t = useLoanText();
  const loan = item.loan;
  const asset = item.asset;
  const short = poolTooSmall(item);
  const mayOpenCustomer = allowed(staff, adminCalls.customerOverview);
  return (
    <>
      <section className="kit-section" aria-labelledby="loan-customer-heading">
        <h3 id="loan-customer-heading">{t.customerHeading}</h3>
        <Facts
          testId="loan-application-customer"
          rows={[
            [
              t.customer,
              mayOpenCustomer ? (
                <Link
                  key="c"
                  to={`/customers/${item.userId}`}
                  aria-label={`${t.openCustomer}: ${item.customer}`}
                >
                  {`${item.customer} (#${item.userId})`}
                </Link>
              ) : (
                `${item.customer} (#${item.userId})`
              ),
            ],
            [
              t.kycState,
              <strong key="k" className={item.kycState === 'verified' ? undefined : 'overdue'}>
                {t.kycStates[item.kycState]}
              </strong>,
            ],
            [t.creditScore, String(item.creditScore)],
            [t.submitted, formatTime(language, item.createdAt)],
          ]}
        />
      </section>
      <section className="kit-section" aria-labelledby="loan-sheet-heading">
        <h3 id="loan-sheet-heading">{t.sheetHeading}</h3>
        <Facts
          testId="loan-application-sheet"
          rows={[
            [t.product, item.productName],
            [t.amountColumn, <Money key="a" value={item.amount} asset={asset} />],
            [t.term, String(item.termDays)],
            [t.dailyRate, <Percent key="r" ratio={loan.dailyRate} />],
            [t.interestFreeDays, String(loan.interestFreeDays)],
            [t.totalInterest, <Money key="i" value={loan.totalInterest} asset={asset} />],
            [t.totalPayable, <Money key="p" value={item.totalPayable} asset={asset} />],
            [
              t.apr,
              <span key="apr" dir="ltr">
                {fill(t.aprValue, { apr: item.apr })}
              </span>,
            ],
            [t.lateRate, fill(t.lateRateValue, { rate: ratioToPercent(loan.lateDailyRate) })],
            [t.lateCap, <Money key="c" value={loan.lateCostCap} asset={asset} />],
            [t.earlyRepayment, t.earlyRepaymentValue],
            [t.withdrawal, String(LOAN_WITHDRAWAL_DAYS)],
            [t.loanState, t.loanStates[loan.state]],
            [
              t.poolNow,
              <span key="pool" className="kit-stack">
                <Money value={item.poolAvailable} asset={asset} />
                {short && loan.state === 'pending' ? (
                  <strong className="overdue">{t.poolTooSmall}</strong>
                ) : null}
              </span>,
            ],
            [
              t.fourEyes,
              item.review.fourEyes
                ? fill(t.fourEyesNeeded, { count: item.review.approvals.length })
                : oneApprovalReason(text, item.review),
            ],
            ...(loan.reason ? ([[t.reasonGiven, loan.reason]] as [string, string][]) : []),
          ]}
        />
      </section>
      <section className="kit-section" aria-labelledby="loan-agreement-heading">
        <h3 id="loan-agreement-heading">{t.agreementHeading}</h3>
        <div className="photos loan-signature">
          <Photo key={item.signature} load={() => fetchUpload(item.signature)} label={t.signature} />
        </div>
        {loan.hasAgreement ? (
          <>
            <Facts rows={[[t.agreementHash, <Code key="h" value={item.agreementSha256} />]]} />
            <AgreementDownload loanId={loan.id} />
          </>
        ) : (
          <p className="muted">{t.noAgreement}</p>
        )}
      </section>
    </>
  );
}

/** Loan applications as a review kind, worded in the loan screens' language. */
function applicationKind(t: LoanText): ReviewKind<LoanApplicationListItem, LoanApplicationItem> {
  return {
    calls: loanApplicationReviewCalls,
    base: '/loans/applications',
    root: keys.loanApplications[0],
    // An approval pays out of the pool: the pools and products change.
    alsoChanges: [keys.loans],
    words: () => ({
      heading: t.applicationsHeading,
      empty: t.applicationsEmpty,
      open: t.open,
      approved: t.applicationApproved,
      rejected: t.applicationRejected,
      onlyDeciders: t.onlyDeciders,
    }),
    itemHeading: (_text, item) => fill(t.applicationItem, { id: item.id }),
    columns: ({ language }) => [
      { key: 'customer', header: t.customer, cell: (i) => i.customer, sortValue: (i) => i.customer },
      { key: 'product', header: t.product, cell: (i) => i.productName, sortValue: (i) => i.productName },
      {
        key: 'amount',
        header: t.amountColumn,
        cell: (i) => <Money value={i.amount} asset={i.asset} />,
        sortValue: (i) => `${i.asset} ${i.amount.padStart(40, '0')}`,
      },
      { key: 'term', header: t.term, cell: (i) => i.termDays, sortValue: (i) => i.termDays },
      {
        key: 'payable',
        header: t.totalPayable,
        cell: (i) => <Money value={i.totalPayable} asset={i.asset} />,
      },
      {
        key: 'apr',
        header: t.apr,
        cell: (i) => <span dir="ltr">{fill(t.aprValue, { apr: i.apr })}</span>,
        sortValue: (i) => Number(i.apr),
      },
      timeColumn('created', t.submitted, language, (i) => i.createdAt),
    ],
    rowName: (i) => `${i.customer} ${plain(i.amount)} ${i.asset}`,
    filterText: (i) => `${i.customer} ${i.productName} ${i.asset}`,
    Details: ApplicationDetails,
    testId: 'loan-application-queue',
  };
}

function useApplicationKind() {
  const { language } = useBackOffice();
  return useMemo(() => applicationKind(LOAN_TEXT[language]), [language]);
}

/** Loan applications (/admin/loans/applications): finance and admin decide, compliance reads. */
export function LoanApplicationQueue() {
  return <ReviewQueueScreen kind={useApplicationKind()} />;
}

/** One loan application (/admin/loans/applications/:id). */
export function LoanApplicationPage() {
  return <ReviewItemScreen kind={useApplicationKind()} />;
}
