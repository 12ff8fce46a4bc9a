import {
  ASSET_SCALES,
  SMART_STRATEGIES,
  type SmartProduct,
  type SmartProductBody,
  type SmartStrategy,
  smartProductBody,
} from '@swx/contract';
import { callAdmin } from '../api.ts';
import { plain } from '../DataTable.tsx';
import { markMaxBelowMin, minorOf, type Part } from '../KitFields.tsx';
import { ProductFormKit, type ProductFormShell } from '../KitProductForm.tsx';
import { keys } from '../query.ts';
import { ratioToPercent } from '../rates.ts';
import { type Problems as DraftProblems, issuesOf } from '../useDraftForm.ts';
import { useSmartProducts, useSmartText } from './SmartProducts.tsx';
import type { SmartText } from './smart.text.ts';
import { instrumentsFor } from './terms.ts';

/** Smart plans hold USDT (the contract's one asset). */
const SCALE = ASSET_SCALES.USDT;

/** The form as typed: amounts as decimals, the fee as a percentage, the timeframes as one line. */
type Draft = {
  name: string;
  strategy: SmartStrategy;
  instrument: string;
  timeframes: string;
  minAmount: string;
  maxAmount: string;
  capacity: string;
  feeShare: string;
  enabled: boolean;
};

const EMPTY: Draft = {
  name: '',
  strategy: 'ma_trend',
  instrument: '',
  timeframes: '',
  minAmount: '',
  maxAmount: '',
  capacity: '',
  feeShare: '',
  enabled: true,
};

const draftOf = (p: SmartProduct): Draft => ({
  name: p.name,
  strategy: p.strategy.key,
  instrument: p.instruments[0] ?? '',
  timeframes: p.timeframes.join(', '),
  minAmount: plain(p.minAmount),
  maxAmount: plain(p.maxAmount),
  capacity: plain(p.capacity),
  feeShare: ratioToPercent(p.feeShare),
  enabled: p.enabled,
});

/** Why a field is wrong beyond "check this value": the key of its message. */
type Reason = 'checkValue' | 'maxBelowMin' | 'capacityBelowMin' | 'capacityBelowTaken' | 'notForStrategy';
type Problems = DraftProblems<Reason>;

/** The product's own checks beyond the fields': the maximum and the capacity against the minimum and what plans take. */
function extraChecks(d: Draft, taken: bigint, problems: Problems): void {
  markMaxBelowMin(problems, d, SCALE);
  const min = minorOf(d.minAmount, SCALE);
  const capacity = minorOf(d.capacity, SCALE);
  if (problems.has('capacity') || capacity === null) return;
  if (min !== null && capacity < min) problems.set('capacity', 'capacityBelowMin');
  else if (capacity < taken) problems.set('capacity', 'capacityBelowTaken');
}

/** The form's parts: the name, strategy, instrument and timeframes, the amounts, the fee, the switch. */
function partsOf(t: SmartText, d: Draft, products: readonly SmartProduct[] | undefined): Part<Draft>[] {
  const f = t.form;
  const amount = (name: 'minAmount' | 'maxAmount' | 'capacity', hint?: string) =>
    ({ name, kind: 'amount', label: f[name], hint, positive: true }) as const;
  return [
    {
      row: [
        { name: 'name', kind: 'text', label: f.name, maxLength: 60 },
        {
          name: 'strategy',
          kind: 'select',
          label: f.strategy,
          options: SMART_STRATEGIES.map((s) => ({ value: s, label: t.strategies[s] })),
          change: (value, draft) => {
            const strategy = value as SmartStrategy;
            const offered = instrumentsFor(strategy, products);
            const instrument = offered.includes(draft.instrument) ? draft.instrument : (offered[0] ?? '');
            return { ...draft, strategy, instrument };
          },
        },
        {
          name: 'instrument',
          kind: 'select',
          label: f.instrument,
          hint: f.instrumentHint,
          dir: 'ltr',
          sendAs: 'instruments',
          send: (code) => (code ? [code] : []),
          options: instrumentsFor(d.strategy, products).map((code) => ({ value: code, label: code })),
        },
        {
          name: 'timeframes',
          kind: 'days',
          list: true,
          digits: 4,
          label: f.timeframes,
          hint: f.timeframesHint,
        },
      ],
    },
    {
      legend: f.amounts,
      parts: [{ row: [amount('minAmount'), amount('maxAmount'), amount('capacity', f.capacityHint)] }],
    },
    { row: [{ name: 'feeShare', kind: 'percent', label: f.feeShare, hint: f.feeShareHint }], fill: true },
    { name: 'enabled', kind: 'toggle', label: f.enabled },
  ];
}

/** The server's field issues (10002 with `[{ path, issue }]`) as the form's messages. */
function serverProblems(data: unknown): Problems {
  const problems: Problems = new Map();
  for (const item of issuesOf(data)) {
    const name = item.name === 'instruments' ? 'instrument' : item.name;
    const reason: Reason =
      item.issue === 'not_for_strategy'
        ? 'notForStrategy'
        : item.issue === 'below_taken'
          ? 'capacityBelowTaken'
          : item.issue === 'below_minimum'
            ? name === 'capacity'
              ? 'capacityBelowMin'
              : 'maxBelowMin'
            : 'checkValue';
    problems.set(name, reason);
  }
  return problems;
}

/**
 * A smart-plan product's terms (admins only): every field of the contract's smartProductBody.
 * Without `product` it creates one; with it, it changes the terms of new plans.
 */
export function SmartProductForm(shell: ProductFormShell<SmartProduct, SmartProduct>) {
  const { product } = shell;
  const t = useSmartText();
  const products = useSmartProducts().data;
  const taken = product ? (minorOf(product.taken, SCALE) ?? 0n) : 0n;
  return (
    <ProductFormKit
      {...shell}
      texts={t}
      change={t.form.change}
      messages={{
        checkValue: t.checkValue,
        maxBelowMin: t.maxBelowMin,
        capacityBelowMin: t.capacityBelowMin,
        capacityBelowTaken: t.capacityBelowTaken,
        notForStrategy: t.notForStrategy,
      }}
      initial={(): Draft =>
        product ? draftOf(product) : { ...EMPTY, instrument: instrumentsFor(EMPTY.strategy)[0] ?? '' }
      }
      parts={(d) => partsOf(t, d, products)}
      schema={smartProductBody}
      scale={() => SCALE}
      unit={() => 'USDT'}
      maxLength={80}
      extra={(d, problems: Problems) => extraChecks(d, taken, problems)}
      save={(body: SmartProductBody) =>
        product
          ? callAdmin('updateSmartProduct', { body: { ...body, id: product.id } })
          : callAdmin('createSmartProduct', { body })
      }
      invalidate={keys.smart}
      fromServer={serverProblems}
    />
  );
}
