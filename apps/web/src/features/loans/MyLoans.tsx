import type { LoanRecord } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Fact, Facts } from '../../ui/product/Facts.tsx';
import { QueryState } from '../../ui/product/ProductPage.tsx';
import { AgreementLink } from './Agreement.tsx';
import { LoanPage, StateWord, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';

/** The facts a loan's card shows. */
export function useRecordFacts(loan: LoanRecord): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const facts: Fact[] = [
    {
      name: 'termDays',
      label: t('loan.sheet.term'),
      value: String(loan.termDays),
      shown: f.days(loan.termDays),
    },
    { name: 'apr', label: t('loan.sheet.apr'), value: loan.apr, shown: f.apr(loan.apr) },
    {
      name: 'appliedAt',
      label: t('loan.record.appliedAt'),
      value: loan.appliedAt,
      shown: f.date(loan.appliedAt),
    },
  ];
  if (loan.dueDate)
    facts.push({
      name: 'dueDate',
      label: t('loan.record.dueDate'),
      value: loan.dueDate,
      shown: f.day(loan.dueDate),
    });
  if (loan.state === 'repaying' || loan.state === 'expired')
    facts.push({
      name: 'outstanding',
      label: t('loan.record.owedNow'),
      value: loan.outstanding.total,
      shown: f.exact(loan.outstanding.total, loan.asset),
    });
  if (loan.state === 'rejected' && loan.reason)
    facts.push({ name: 'reason', label: t('loan.record.reason'), value: loan.reason, shown: loan.reason });
  return facts;
}

/** One loan as a card: product, amount, state in words, the facts, its links. */
export function LoanCard({
  loan,
  links = 'detail',
}: {
  loan: LoanRecord;
  links?: 'detail' | 'agreement' | 'repay';
}) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const facts = useRecordFacts(loan);
  const headingId = `loan-${loan.id}`;
  const open = loan.state === 'repaying' || loan.state === 'expired';
  return (
    <li
      className="card product-card loan-record"
      data-loan={loan.id}
      data-state={loan.state}
      aria-labelledby={headingId}
    >
      <div className="product-card-head">
        <h3 id={headingId}>
          <Link to={`/loan/${loan.id}`}>{loan.productName}</Link>
        </h3>
        <span className="loan-chip product-chip">{loan.asset}</span>
      </div>
      <p className="product-card-amount">
        <strong data-value={loan.amount}>{f.exact(loan.amount, loan.asset)}</strong>{' '}
        <StateWord state={loan.state} />
      </p>
      <Facts facts={facts} />
      <div className="row">
        {links === 'agreement' ? (
          loan.hasAgreement ? (
            <AgreementLink loan={loan} />
          ) : (
            <p className="small muted">{t('loan.agreementFile.none')}</p>
          )
        ) : links === 'repay' && open ? (
          <Link className="button primary" to={`/loan/${loan.id}#repay`} aria-describedby={headingId}>
            {t('loan.repay.open')}
          </Link>
        ) : (
          <Link className="button ghost" to={`/loan/${loan.id}`} aria-describedby={headingId}>
            {t('loan.record.details')}
          </Link>
        )}
      </div>
    </li>
  );
}

/** A list of my loans, filtered; with its loading, error and empty states. */
export function LoanList({
  userId,
  filter = () => true,
  empty,
  links,
}: {
  userId: number;
  filter?: (loan: LoanRecord) => boolean;
  empty: string;
  links?: 'detail' | 'agreement' | 'repay';
}) {
  const { t } = useTranslation();
  const query = useQuery(loanQueries.records(userId));
  if (!query.isSuccess) return <QueryState query={query} />;
  const loans = query.data.filter(filter);
  if (loans.length === 0)
    return (
      <section className="card product-note loan-missing">
        <p>{empty}</p>
        <Link to="/loan">{t('loan.borrow.toProducts')}</Link>
      </section>
    );
  return (
    <ul className="product-grid" data-testid="loan-records">
      {loans.map((loan) => (
        <LoanCard key={loan.id} loan={loan} {...(links ? { links } : {})} />
      ))}
    </ul>
  );
}

/** My loans (/loan/records, listLoanRecord): newest first. */
export default function MyLoans() {
  const { t } = useTranslation();
  return (
    <LoanPage title={t('title.loanRecords')}>
      {(userId) => <LoanList userId={userId} empty={t('loan.record.none')} />}
    </LoanPage>
  );
}
