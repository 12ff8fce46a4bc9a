import { adminCalls, type OverdueLoan } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { allowed, callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, plain } from '../DataTable.tsx';
import { Money } from '../KitProductList.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';

/**
 * Overdue loans (/admin/loans/overdue): loans past their due date with money owed, longest
 * overdue first (the server's order): days late, what is due now and the late cost beside its cap.
 */
export function OverdueLoans() {
  const { text, language, staff } = useBackOffice();
  const t = useLoanText();
  const headingId = useId();
  const query = useQuery({ queryKey: keys.loanOverdue(language), queryFn: () => callAdmin('overdueLoans') });
  const mayOpenCustomer = allowed(staff, adminCalls.customerOverview);
  const columns: Column<OverdueLoan>[] = [
    {
      key: 'customer',
      header: t.customer,
      cell: (r) =>
        mayOpenCustomer ? (
          <Link to={`/customers/${r.userId}`}>{`${r.customer} (#${r.userId})`}</Link>
        ) : (
          `${r.customer} (#${r.userId})`
        ),
      sortValue: (r) => r.customer,
    },
    {
      key: 'loan',
      header: t.loan,
      cell: (r) => (
        <span className="kit-stack">
          <span>{fill(t.loanValue, { id: r.loan.id })}</span>
          <span className="muted">{r.loan.productName}</span>
        </span>
      ),
      sortValue: (r) => r.loan.id,
    },
    {
      key: 'borrowed',
      header: t.borrowed,
      cell: (r) => <Money value={r.loan.amount} asset={r.loan.asset} />,
    },
    {
      key: 'due',
      header: t.dueDate,
      cell: (r) => <span dir="ltr">{r.loan.dueDate ?? '—'}</span>,
      sortValue: (r) => r.loan.dueDate ?? '',
    },
    {
      key: 'late',
      header: t.daysLate,
      cell: (r) => <strong className="overdue">{r.daysOverdue}</strong>,
      sortValue: (r) => r.daysOverdue,
    },
    {
      key: 'owed',
      header: t.amountDue,
      cell: (r) => <Money value={r.loan.outstanding.total} asset={r.loan.asset} />,
      sortValue: (r) => Number(r.loan.outstanding.total),
    },
    {
      key: 'lateCost',
      header: t.lateCostColumn,
      cell: (r) => (
        <span className="kit-stack">
          <Money value={r.loan.outstanding.lateCost} asset={r.loan.asset} />
          <span className="muted">
            {fill(t.lateCapValue, { cap: `${plain(r.loan.lateCostCap)} ${r.loan.asset}` })}
          </span>
        </span>
      ),
    },
  ];
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {t.overdueHeading}
      </h2>
      <p className="muted">{t.overdueIntro}</p>
      <DataTable
        caption={t.overdueHeading}
        columns={columns}
        rows={query.data}
        rowKey={(r) => r.loan.id}
        loading={query.isPending}
        failure={query.isError ? failureMessage(query.error, text.error.generic) : ''}
        onRetry={() => void query.refetch()}
        empty={t.overdueEmpty}
        filterText={(r) => `${r.customer} ${r.userId} ${r.loan.id} ${r.loan.productName}`}
        testId="loan-overdue"
      />
    </section>
  );
}
