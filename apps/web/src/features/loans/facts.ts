import type { LoanRecord } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { exactFact, type Fact } from '../../ui/product/Facts.tsx';
import { useLoanFormat } from './parts.tsx';

/** The terms a quote and a loan both state. */
type Terms = Pick<
  LoanRecord,
  | 'amount'
  | 'asset'
  | 'termDays'
  | 'dailyRate'
  | 'totalInterest'
  | 'totalPayable'
  | 'apr'
  | 'lateDailyRate'
  | 'lateCostCap'
>;

/** The facts of the terms a quote and a loan share, by name: each screen lists them in its own order. */
export function useTermFacts(terms: Terms) {
  const { t } = useTranslation();
  const f = useLoanFormat();
  const { asset } = terms;
  return {
    amount: exactFact(f, 'amount', t('loan.sheet.amount'), terms.amount, asset),
    termDays: {
      name: 'termDays',
      label: t('loan.sheet.term'),
      value: String(terms.termDays),
      shown: f.days(terms.termDays),
    },
    dailyRate: {
      name: 'dailyRate',
      label: t('loan.sheet.dailyRate'),
      value: terms.dailyRate,
      shown: f.rate(terms.dailyRate),
    },
    totalInterest: exactFact(f, 'totalInterest', t('loan.sheet.totalInterest'), terms.totalInterest, asset),
    totalPayable: exactFact(f, 'totalPayable', t('loan.sheet.totalPayable'), terms.totalPayable, asset),
    apr: { name: 'apr', label: t('loan.sheet.apr'), value: terms.apr, shown: f.apr(terms.apr) },
    late: {
      name: 'late',
      long: true,
      label: t('loan.sheet.late'),
      value: `${terms.lateDailyRate} ${terms.lateCostCap}`,
      shown: t('loan.sheet.lateValue', {
        rate: f.rate(terms.lateDailyRate),
        cap: f.exact(terms.lateCostCap, asset),
      }),
    },
  } satisfies Record<string, Fact>;
}
