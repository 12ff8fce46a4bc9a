import type { Language, OverdueLoan } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { amountText } from '../amount.ts';
import { callAdmin } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { type Column, DataTable, useQueryState } from '../DataTable.tsx';
import { CustomerLink } from '../Facts.tsx';
import { Money } from '../KitProductList.tsx';
import { Screen } from '../KitScreen.tsx';
import { keys } from '../query.ts';
import { fill } from '../text.ts';
import { useLoanText } from './LoanProducts.tsx';
import type { LoanText } from './loans.text.ts';

/** The overdue list's columns: who, which loan, what was borrowed, due when, how late, what is owed. */
function overdueColumns(t: LoanText, language: Language): Column<OverdueLoan>[] {
  return [
    {
      key: 'customer',
      header: t.customer,
      cell: (r) => <CustomerLink of={r} />,
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
            {fill(t.lateCapValue, { cap: amountText(language, r.loan.lateCostCap, r.loan.asset) })}
          </span>
        </span>
      ),
    },
  ];
}

/**
 * Overdue loans (/admin/loans/overdue): loans past their due date with money owed, longest
 * overdue first (the server's order): days late, what is due now and the late cost beside its cap.
 */
export function OverdueLoans() {
  const { language } = useBackOffice();
  const t = useLoanText();
  const query = useQuery({ queryKey: keys.loanOverdue(language), queryFn: () => callAdmin('overdueLoans') });
  const state = useQueryState(query);
  return (
    <Screen heading={t.overdueHeading}>
      <p className="muted">{t.overdueIntro}</p>
      <DataTable
        caption={t.overdueHeading}
        columns={overdueColumns(t, language)}
        rows={query.data}
        rowKey={(r) => r.loan.id}
        {...state}
        empty={t.overdueEmpty}
        filterText={(r) => `${r.customer} ${r.userId} ${r.loan.id} ${r.loan.productName}`}
        testId="loan-overdue"
      />
    </Screen>
  );
}
