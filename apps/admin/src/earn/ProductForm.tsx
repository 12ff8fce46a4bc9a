import {
  ASSET_SCALES,
  EARN_ASSETS,
  EARN_INCOMES,
  EARN_TYPES,
  type EarnIncome,
  type EarnProduct,
  type EarnProductAdmin,
  type EarnProductBody,
  type EarnType,
  earnProductBody,
} from '@swx/contract';
import { callAdmin } from '../api.ts';
import { plain } from '../DataTable.tsx';
import { type FieldKind, markMaxBelowMin, type Part } from '../KitFields.tsx';
import { ProductFormKit, type ProductFormShell } from '../KitProductForm.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { basketCodes } from './basket.ts';
import { useEarnText } from './EarnProducts.tsx';
import type { EarnText } from './earn.text.ts';

type Asset = (typeof EARN_ASSETS)[number];

/** The form as typed: amounts as decimals, rates as percentages, the basket as one line. */
type Draft = {
  type: EarnType;
  name: string;
  asset: Asset;
  income: EarnIncome;
  flexible: boolean;
  termDays: string;
  annualRate: string;
  basket: string;
  minAmount: string;
  maxAmount: string;
  capacity: string;
  penaltyRate: string;
  requiresKyc: boolean;
  onePerCustomer: boolean;
  enabled: boolean;
};

const EMPTY: Draft = {
  type: 'fund',
  name: '',
  asset: 'USDT',
  income: 'static',
  flexible: false,
  termDays: '30',
  annualRate: '',
  basket: '',
  minAmount: '',
  maxAmount: '',
  capacity: '',
  penaltyRate: '0',
  requiresKyc: false,
  onePerCustomer: false,
  enabled: true,
};

const draftOf = (p: EarnProduct): Draft => ({
  type: p.type,
  name: p.name,
  asset: p.asset,
  income: p.income,
  flexible: p.termDays === null,
  termDays: p.termDays === null ? '' : String(p.termDays),
  annualRate: p.annualRate === null ? '' : ratioToPercent(p.annualRate),
  basket: p.basket.join(', '),
  minAmount: plain(p.minAmount),
  maxAmount: plain(p.maxAmount),
  capacity: plain(p.capacity),
  penaltyRate: ratioToPercent(p.penaltyRate),
  requiresKyc: p.requiresKyc,
  onePerCustomer: p.onePerCustomer,
  enabled: p.enabled,
});

/** The first row: the type, the name, the asset (kept once created) and the income. */
function kindRow(t: EarnText, product: EarnProduct | undefined): Part<Draft> {
  const f = t.form;
  return {
    row: [
      {
        name: 'type',
        kind: 'select',
        label: f.type,
        options: EARN_TYPES.map((v) => ({ value: v, label: t.types[v] })),
      },
      { name: 'name', kind: 'text', label: f.name },
      // A product keeps its asset: its reserve, investments and ledger accounts are in it.
      {
        name: 'asset',
        kind: 'select',
        label: f.asset,
        disabled: product !== undefined,
        options: EARN_ASSETS.map((v) => ({ value: v, label: v })),
      },
      {
        name: 'income',
        kind: 'select',
        label: f.income,
        options: EARN_INCOMES.map((v) => ({ value: v, label: t.incomes[v] })),
      },
    ],
  };
}

/** The form's parts: the type and asset, the term, the rate or basket, the limits, the rules. */
function partsOf(t: EarnText, d: Draft, product: EarnProduct | undefined): Part<Draft>[] {
  const f = t.form;
  const field = <K extends keyof Draft & keyof EarnText['form']>(name: K, kind: FieldKind) => ({
    name,
    kind,
    label: f[name],
  });
  return [
    kindRow(t, product),
    {
      legend: t.term,
      parts: [
        { ...field('flexible', 'toggle'), local: true },
        {
          row: [
            { ...field('termDays', 'days'), hint: f.termDaysHint, off: null },
            { ...field('penaltyRate', 'rate'), hint: f.penaltyRateHint, off: '0' },
          ],
          shown: !d.flexible,
        },
      ],
    },
    {
      legend: t.rateLegend,
      parts: [
        { ...field('annualRate', 'rate'), hint: f.annualRateHint, shown: d.income === 'static', off: null },
        {
          ...field('basket', 'text'),
          hint: f.basketHint,
          shown: d.income === 'dynamic',
          off: [],
          parse: (typed) => nonEmpty(basketCodes(typed)),
          fallback: [],
        },
        ...(product ? [{ note: f.rateChange }] : []),
      ],
    },
    {
      legend: t.limitsHeader,
      parts: [
        { row: [field('minAmount', 'amount'), field('maxAmount', 'amount'), field('capacity', 'amount')] },
      ],
    },
    {
      legend: t.rules,
      parts: [field('requiresKyc', 'toggle'), field('onePerCustomer', 'toggle'), field('enabled', 'toggle')],
    },
  ];
}

const nonEmpty = (codes: string[]) => (codes.length > 0 ? codes : null);

/**
 * A product's terms (admins only): every field of the contract's earnProductBody. Static
 * products take an annual rate, dynamic ones a basket of instruments; a fixed term takes lock
 * days and an early-exit penalty. Without `product` it creates one.
 */
export function ProductForm(shell: ProductFormShell<EarnProduct, EarnProductAdmin>) {
  const { product } = shell;
  const t = useEarnText();
  return (
    <ProductFormKit
      {...shell}
      texts={t}
      messages={{ checkValue: t.checkValue, maxBelowMin: t.maxBelowMin }}
      initial={(): Draft => (product ? draftOf(product) : EMPTY)}
      parts={(d) => partsOf(t, d, product)}
      schema={earnProductBody}
      scale={(d) => ASSET_SCALES[d.asset]}
      unit={(d) => d.asset}
      extra={(d, problems) => markMaxBelowMin(problems, d, ASSET_SCALES[d.asset])}
      save={(body: EarnProductBody) =>
        product
          ? callAdmin('updateEarnProduct', { body: { ...body, id: product.id } })
          : callAdmin('createEarnProduct', { body })
      }
      invalidate={keys.earn}
    />
  );
}
