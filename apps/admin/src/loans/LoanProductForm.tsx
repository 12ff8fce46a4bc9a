import {
  ASSET_SCALES,
  LOAN_ASSETS,
  type LoanProduct,
  type LoanProductAdmin,
  type LoanProductBody,
  loanProductBody,
} from '@swx/contract';
import { callAdmin } from '../api.ts';
import { plain } from '../DataTable.tsx';
import { markMaxBelowMin, type Part } from '../KitFields.tsx';
import { ProductFormKit, type ProductFormShell } from '../KitProductForm.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { useLoanText } from './LoanProducts.tsx';
import type { LoanText } from './loans.text.ts';

type Asset = (typeof LOAN_ASSETS)[number];

/** The form as typed: amounts as decimals, rates as percentages, the terms as one line. */
type Draft = {
  name: string;
  asset: Asset;
  minAmount: string;
  maxAmount: string;
  terms: string;
  dailyRate: string;
  interestFreeDays: string;
  lateDailyRate: string;
  lateCapRate: string;
  enabled: boolean;
};

const EMPTY: Draft = {
  name: '',
  asset: 'USDT',
  minAmount: '',
  maxAmount: '',
  terms: '',
  dailyRate: '',
  interestFreeDays: '0',
  lateDailyRate: '',
  lateCapRate: '',
  enabled: true,
};

const draftOf = (p: LoanProduct): Draft => ({
  name: p.name,
  asset: p.asset,
  minAmount: plain(p.minAmount),
  maxAmount: plain(p.maxAmount),
  terms: p.terms.join(', '),
  dailyRate: ratioToPercent(p.dailyRate),
  interestFreeDays: String(p.interestFreeDays),
  lateDailyRate: ratioToPercent(p.lateDailyRate),
  lateCapRate: ratioToPercent(p.lateCapRate),
  enabled: p.enabled,
});

/** The form's parts: the name and asset, the amounts and terms, the interest, the late rule. */
function partsOf(t: LoanText, product: LoanProduct | undefined): Part<Draft>[] {
  const f = t.form;
  return [
    {
      row: [
        { name: 'name', kind: 'text', label: f.name, maxLength: 60 },
        {
          name: 'asset',
          kind: 'select',
          label: f.asset,
          // A product keeps its asset: its loans and pool are in it.
          disabled: product !== undefined,
          hint: product ? f.assetKept : undefined,
          options: LOAN_ASSETS.map((v) => ({ value: v, label: v })),
        },
      ],
    },
    {
      legend: f.amounts,
      parts: [
        {
          row: [
            { name: 'minAmount', kind: 'amount', label: f.minAmount, positive: true },
            { name: 'maxAmount', kind: 'amount', label: f.maxAmount, hint: f.maxHint, positive: true },
            { name: 'terms', kind: 'days', list: true, digits: 3, label: f.terms, hint: f.termsHint },
          ],
        },
      ],
    },
    {
      legend: f.interest,
      parts: [
        {
          row: [
            { name: 'dailyRate', kind: 'rate', label: f.dailyRate, hint: f.dailyRateHint },
            {
              name: 'interestFreeDays',
              kind: 'days',
              digits: 3,
              label: f.interestFreeDays,
              hint: f.interestFreeHint,
            },
          ],
        },
      ],
    },
    {
      legend: f.latePayment,
      parts: [
        {
          row: [
            { name: 'lateDailyRate', kind: 'rate', label: f.lateDailyRate, hint: f.lateDailyHint },
            { name: 'lateCapRate', kind: 'rate', label: f.lateCapRate, hint: f.lateCapHint },
          ],
        },
      ],
    },
    { name: 'enabled', kind: 'toggle', label: f.enabled },
  ];
}

/**
 * A loan product's terms (admins only): every field of the contract's loanProductBody. Without
 * `product` it creates one; with it, it changes the terms of new applications.
 */
export function LoanProductForm(shell: ProductFormShell<LoanProduct, LoanProductAdmin>) {
  const { product } = shell;
  const t = useLoanText();
  return (
    <ProductFormKit
      {...shell}
      texts={t}
      change={t.form.change}
      messages={{ checkValue: t.checkValue, maxBelowMin: t.maxBelowMin }}
      initial={(): Draft => (product ? draftOf(product) : EMPTY)}
      parts={() => partsOf(t, product)}
      schema={loanProductBody}
      scale={(d) => ASSET_SCALES[d.asset]}
      unit={(d) => d.asset}
      maxLength={80}
      extra={(d, problems) => markMaxBelowMin(problems, d, ASSET_SCALES[d.asset])}
      save={(body: LoanProductBody) =>
        product
          ? callAdmin('updateLoanProduct', { body: { ...body, id: product.id } })
          : callAdmin('createLoanProduct', { body })
      }
      invalidate={keys.loans}
    />
  );
}
