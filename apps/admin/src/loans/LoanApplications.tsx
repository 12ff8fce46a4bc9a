import {
  ASSET_SCALES,
  LOAN_WITHDRAWAL_DAYS,
  type LoanApplicationItem,
  type LoanApplicationListItem,
  loanApplicationReviewCalls,
  parseMinor,
} from '@swx/contract';
import { useState } from 'react';
import { fetchLoanAgreement } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { textColumn } from '../DataTable.tsx';
import { Code, CustomerLink, Facts, FactsSection } from '../Facts.tsx';
import { Alert } from '../Field.tsx';
import { Money, Percent } from '../KitProductList.tsx';
import { KitSection } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { type Reviewed, reviewScreens } from '../review/ReviewQueue.tsx';
import {
  areaKind,
  fourEyesFact,
  ProofImage,
  reasonFacts,
  transferColumns,
  transferName,
} from '../review/reviewParts.tsx';
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

/** The customer: their page (for whom may open it), identity verification, credit score. */
function ApplicantFacts({ item }: { item: Reviewed<LoanApplicationItem> }) {
  const { language } = useBackOffice();
  const t = useLoanText();
  return (
    <FactsSection
      id="loan-customer-heading"
      heading={t.customerHeading}
      testId="loan-application-customer"
      rows={[
        [t.customer, <CustomerLink key="c" of={item} label={`${t.openCustomer}: ${item.customer}`} />],
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
  );
}

/** The pool that would pay the loan out, and whether it is short of the amount (while pending). */
function PoolNow({ item }: { item: Reviewed<LoanApplicationItem> }) {
  const t = useLoanText();
  return (
    <span className="kit-stack">
      <Money value={item.poolAvailable} asset={item.asset} />
      {poolTooSmall(item) && item.loan.state === 'pending' ? (
        <strong className="overdue">{t.poolTooSmall}</strong>
      ) : null}
    </span>
  );
}

/** The figures of the information sheet the customer signed, the loan's state and its review. */
function SheetFacts({ item }: { item: Reviewed<LoanApplicationItem> }) {
  const { text, language } = useBackOffice();
  const t = useLoanText();
  const loan = item.loan;
  const asset = item.asset;
  return (
    <FactsSection
      id="loan-sheet-heading"
      heading={t.sheetHeading}
      testId="loan-application-sheet"
      rows={[
        [t.product, item.productName],
        [t.amountColumn, <Money key="a" value={item.amount} asset={asset} />],
        [t.term, String(item.termDays)],
        [t.dailyRate, <Percent key="r" ratio={loan.dailyRate} />],
        [t.interestFreeDays, String(loan.interestFreeDays)],
        [t.totalInterest, <Money key="i" value={loan.totalInterest} asset={asset} />],
        [t.totalPayable, <Money key="p" value={item.totalPayable} asset={asset} />],
        [t.apr, <Apr key="apr" apr={item.apr} />],
        [t.lateRate, fill(t.lateRateValue, { rate: ratioToPercent(loan.lateDailyRate) })],
        [t.lateCap, <Money key="c" value={loan.lateCostCap} asset={asset} />],
        [t.earlyRepayment, t.earlyRepaymentValue],
        [t.withdrawal, String(LOAN_WITHDRAWAL_DAYS)],
        [t.loanState, t.loanStates[loan.state]],
        [t.poolNow, <PoolNow key="pool" item={item} />],
        fourEyesFact(text, t.fourEyes, t.fourEyesNeeded, item.review, language),
        ...reasonFacts(t.reasonGiven, loan.reason),
      ]}
    />
  );
}

/** The signed agreement: the drawn signature, and the PDF with its SHA-256 once there is one. */
function AgreementSection({ item }: { item: Reviewed<LoanApplicationItem> }) {
  const t = useLoanText();
  return (
    <KitSection id="loan-agreement-heading" heading={t.agreementHeading}>
      <ProofImage upload={item.signature} label={t.signature} className="loan-signature" />
      {item.loan.hasAgreement ? (
        <>
          <Facts rows={[[t.agreementHash, <Code key="h" value={item.agreementSha256} />]]} />
          <AgreementDownload loanId={item.loan.id} />
        </>
      ) : (
        <p className="muted">{t.noAgreement}</p>
      )}
    </KitSection>
  );
}

/**
 * A loan application on its review page: the customer (identity verification, credit score), the
 * figures of the information sheet the customer signed, the pool that would pay it out, and the
 * signed agreement (the drawn signature and the PDF with its SHA-256).
 */
function ApplicationDetails({ item }: { item: Reviewed<LoanApplicationItem> }) {
  return (
    <>
      <ApplicantFacts item={item} />
      <SheetFacts item={item} />
      <AgreementSection item={item} />
    </>
  );
}

/** The annual percentage rate, "12.3 % APR", kept left to right. */
function Apr({ apr }: { apr: string }) {
  const t = useLoanText();
  return <span dir="ltr">{fill(t.aprValue, { apr })}</span>;
}

/**
 * Loan applications (/admin/loans/applications, one at …/:id): finance and admin decide,
 * compliance reads.
 */
export const { Queue: LoanApplicationQueue, Item: LoanApplicationPage } = reviewScreens(
  areaKind<LoanText, LoanApplicationListItem, LoanApplicationItem>({
    calls: loanApplicationReviewCalls,
    base: '/loans/applications',
    root: keys.loanApplications[0],
    // An approval pays out of the pool: the pools and products change.
    alsoChanges: [keys.loans],
    texts: LOAN_TEXT,
    words: (t) => ({
      heading: t.applicationsHeading,
      empty: t.applicationsEmpty,
      item: t.applicationItem,
      approved: t.applicationApproved,
      rejected: t.applicationRejected,
    }),
    columns: (t, language) => [
      transferColumns.customer(t.customer),
      textColumn('product', t.product, (i) => i.productName),
      transferColumns.amount(t.amountColumn),
      textColumn('term', t.term, (i) => i.termDays),
      {
        key: 'payable',
        header: t.totalPayable,
        cell: (i) => <Money value={i.totalPayable} asset={i.asset} />,
      },
      { key: 'apr', header: t.apr, cell: (i) => <Apr apr={i.apr} />, sortValue: (i) => Number(i.apr) },
      transferColumns.submitted(t.submitted, language),
    ],
    rowName: transferName,
    filterText: (i) => `${i.customer} ${i.productName} ${i.asset}`,
    Details: ApplicationDetails,
    testId: 'loan-application-queue',
  }),
);
