import type { LoanDetail as Detail, LoanState } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { idOf } from '../../app/pathId.ts';
import { CardTable } from '../../ui/CardTable.tsx';
import { Empty } from '../../ui/PageState.tsx';
import { type Fact, Facts, ScrollTable } from '../../ui/product/Facts.tsx';
import { Missing, QueryState } from '../../ui/product/ProductPage.tsx';
import { useUploadedFile } from '../uploads/upload.ts';
import { AgreementLink } from './Agreement.tsx';
import { useTermFacts } from './facts.ts';
import { LoanPage, STATE_TONES, StateWord, useLoanFormat } from './parts.tsx';
import { loanQueries } from './queries.ts';
import { Repay } from './Repay.tsx';

/** A loan's dates, those it has so far (the withdrawal's last day while it is repaid), and staff's reason. */
function useEventFacts(loan: Detail): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const events: [name: string, label: string, value: string | null, format: (value: string) => string][] = [
    ['disbursedAt', t('loan.record.disbursedAt'), loan.disbursedAt, f.day],
    ['interestFrom', t('loan.record.interestFrom'), loan.interestFrom, f.day],
    ['dueDate', t('loan.record.dueDate'), loan.dueDate, f.day],
    [
      'withdrawableUntil',
      t('loan.record.withdrawableUntil'),
      loan.state === 'repaying' ? loan.withdrawableUntil : null,
      f.day,
    ],
    ['closedAt', t('loan.record.closedAt'), loan.closedAt, f.date],
    ['reason', t('loan.record.reason'), loan.reason, (reason) => reason],
  ];
  return events.flatMap(([name, label, value, format]) =>
    value ? [{ name, label, value, shown: format(value) }] : [],
  );
}

function useDetailFacts(loan: Detail): Fact[] {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const terms = useTermFacts(loan);
  const events = useEventFacts(loan);
  return [
    terms.amount,
    terms.termDays,
    terms.dailyRate,
    {
      name: 'interestFreeDays',
      label: t('loan.sheet.interestFree'),
      value: String(loan.interestFreeDays),
      shown: f.days(loan.interestFreeDays),
    },
    terms.totalInterest,
    terms.totalPayable,
    terms.apr,
    terms.late,
    {
      name: 'appliedAt',
      label: t('loan.record.appliedAt'),
      value: loan.appliedAt,
      shown: f.date(loan.appliedAt),
    },
    ...events,
  ];
}

/** Owed now beside paid so far: principal, interest, late cost, total. */
function Amounts({ loan }: { loan: Detail }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const rows = ['principal', 'interest', 'lateCost', 'total'] as const;
  return (
    <CardTable label={t('loan.detail.amounts')} className="loan-amounts" testId="loan-amounts">
      <thead>
        <tr>
          <td />
          <th scope="col" className="num">
            {t('loan.detail.owed')}
          </th>
          <th scope="col" className="num">
            {t('loan.detail.paid')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row} data-row={row}>
            <th scope="row">{t(`loan.payoff.${row === 'total' ? 'sum' : row}`)}</th>
            <td className="num" data-value={loan.outstanding[row]} data-column="owed">
              {f.exact(loan.outstanding[row], loan.asset)}
            </td>
            <td className="num" data-value={loan.paid[row]} data-column="paid">
              {f.exact(loan.paid[row], loan.asset)}
            </td>
          </tr>
        ))}
      </tbody>
    </CardTable>
  );
}

function Schedule({ loan }: { loan: Detail }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  if (loan.schedule.length === 0) return <Empty text={t('loan.detail.noSchedule')} />;
  return (
    <ScrollTable
      label={t('loan.detail.schedule')}
      testId="loan-schedule"
      cards
      head={[
        { text: t('loan.record.dueDate') },
        { text: t('loan.payoff.principal'), num: true },
        { text: t('loan.payoff.interest'), num: true },
        { text: t('loan.payoff.sum'), num: true },
      ]}
    >
      {loan.schedule.map((row) => (
        <tr key={row.dueDate}>
          <td>{f.day(row.dueDate)}</td>
          <td className="num">{f.exact(row.principal, loan.asset)}</td>
          <td className="num">{f.exact(row.interest, loan.asset)}</td>
          <td className="num" data-value={row.total}>
            {f.exact(row.total, loan.asset)}
          </td>
        </tr>
      ))}
    </ScrollTable>
  );
}

function Accruals({ loan }: { loan: Detail }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  return (
    <details className="product-details loan-accruals" data-testid="loan-accruals">
      <summary>{t('loan.detail.accruals')}</summary>
      {loan.accruals.length === 0 ? (
        <Empty text={t('loan.detail.noAccruals')} />
      ) : (
        <ScrollTable
          label={t('loan.detail.accrualsTitle')}
          cards
          head={[
            { text: t('loan.detail.day') },
            { text: t('loan.payoff.interest'), num: true },
            { text: t('loan.payoff.lateCost'), num: true },
          ]}
        >
          {[...loan.accruals].reverse().map((row) => (
            <tr key={row.day} data-day={row.day}>
              <td>{f.day(row.day)}</td>
              <td className="num" data-column="interest" data-value={row.interest}>
                {f.exact(row.interest, loan.asset)}
              </td>
              <td className="num" data-column="lateCost" data-value={row.lateCost}>
                {f.exact(row.lateCost, loan.asset)}
              </td>
            </tr>
          ))}
        </ScrollTable>
      )}
    </details>
  );
}

/** The proof image of a repayment by transfer (fetched with the session: only its owner reads it). */
function ProofImage({ id }: { id: string }) {
  const { t } = useTranslation();
  const file = useUploadedFile(id);
  if (!file.url) return null;
  return <img className="loan-proof-image" src={file.url} alt={t('loan.detail.proofImage')} />;
}

/** A repayment's state as a loan's, for its chip: approved is repaid. */
const repaymentState = (r: Detail['repayments'][number]): LoanState =>
  r.state === 'approved' ? 'repaid' : r.state === 'rejected' ? 'rejected' : 'pending';

function Repayments({ loan }: { loan: Detail }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  if (loan.repayments.length === 0) return <Empty text={t('loan.detail.noRepayments')} />;
  return (
    <ul className="product-list loan-repayments" data-testid="loan-repayments">
      {[...loan.repayments].reverse().map((r) => (
        <li
          key={r.id}
          className="loan-repayment"
          data-repayment={r.id}
          data-state={r.state}
          data-method={r.method}
        >
          <p className="product-card-amount">
            <strong data-value={r.amount}>{f.exact(r.amount, loan.asset)}</strong>{' '}
            <span
              className="loan-state product-chip"
              data-state={repaymentState(r)}
              data-tone={STATE_TONES[repaymentState(r)]}
            >
              {t(`loan.repaymentState.${r.method === 'balance' ? 'paid' : r.state}`)}
            </span>
          </p>
          <p className="small muted">
            {t(`loan.repay.by.${r.method}`)} · {f.date(r.createdAt)}
          </p>
          {r.principal !== null && r.interest !== null && r.lateCost !== null ? (
            <p className="small">
              {t('loan.detail.allocated', {
                late: f.exact(r.lateCost, loan.asset),
                interest: f.exact(r.interest, loan.asset),
                principal: f.exact(r.principal, loan.asset),
              })}
            </p>
          ) : null}
          {r.txHash ? (
            <p className="small">
              {t('loan.proof.txHash')}:{' '}
              <code dir="ltr" className="loan-hash">
                {r.txHash}
              </code>
            </p>
          ) : null}
          {r.proof ? <ProofImage id={r.proof} /> : null}
          {r.reason ? (
            <p className="small loan-reason">{t('loan.detail.reason', { reason: r.reason })}</p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Summary({ loan }: { loan: Detail }) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const facts = useDetailFacts(loan);
  return (
    <section className="card product-card loan-summary" aria-labelledby="loan-detail-name">
      <div className="product-card-head">
        <h2 id="loan-detail-name">{loan.productName}</h2>
        <span className="loan-chip product-chip">{loan.asset}</span>
      </div>
      <p className="product-card-amount">
        <strong data-value={loan.amount}>{f.exact(loan.amount, loan.asset)}</strong>{' '}
        <StateWord state={loan.state} />
      </p>
      <p className="loan-state-text">{t(`loan.stateText.${loan.state}`)}</p>
      <Facts facts={facts} testId="loan-facts" />
      {loan.hasAgreement ? <AgreementLink loan={loan} /> : null}
    </section>
  );
}

function DetailBody({ userId, id }: { userId: number; id: number }) {
  const { t } = useTranslation();
  const query = useQuery(loanQueries.detail(userId, id));
  if (!query.isSuccess) return <QueryState query={query} missing={<NoSuchLoan />} />;
  const loan = query.data;
  const open = loan.state === 'repaying' || loan.state === 'expired';
  return (
    <div className="product-stack" data-loan={loan.id} data-state={loan.state}>
      <Summary loan={loan} />
      <section className="card" aria-labelledby="loan-amounts-title">
        <h2 id="loan-amounts-title">{t('loan.detail.amounts')}</h2>
        <Amounts loan={loan} />
      </section>
      {open ? (
        <Repay key={`${loan.outstanding.total}|${loan.repayments.length}`} userId={userId} loanId={loan.id} />
      ) : null}
      <section className="card" aria-labelledby="loan-schedule-title">
        <h2 id="loan-schedule-title">{t('loan.detail.schedule')}</h2>
        <p className="small muted">{t('loan.detail.scheduleNote')}</p>
        <Schedule loan={loan} />
        <Accruals loan={loan} />
      </section>
      <section className="card" aria-labelledby="loan-repayments-title">
        <h2 id="loan-repayments-title">{t('loan.detail.repayments')}</h2>
        <Repayments loan={loan} />
      </section>
    </div>
  );
}

function NoSuchLoan() {
  const { t } = useTranslation();
  return (
    <Missing
      name="loan"
      text={t('loan.detail.notFound')}
      to="/loan/records"
      back={t('loan.detail.toRecords')}
    />
  );
}

/** One of my loans (/loan/:id): state in words, facts, owed and paid, repayment, schedule, accruals, repayments. */
export default function LoanDetail() {
  const { t } = useTranslation();
  const { id } = useParams();
  const loanId = idOf(id);
  return (
    <LoanPage title={t('title.loanDetail')}>
      {(userId) => (loanId === null ? <NoSuchLoan /> : <DetailBody userId={userId} id={loanId} />)}
    </LoanPage>
  );
}
