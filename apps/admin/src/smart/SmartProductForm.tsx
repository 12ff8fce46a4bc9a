import {
  ASSET_SCALES,
  parseMinor,
  SMART_STRATEGIES,
  type SmartProduct,
  type SmartProductBody,
  type SmartStrategy,
  smartProductBody,
} from '@swx/contract';
import { useId } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { plain } from '../DataTable.tsx';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { percentToRatio, ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { type Problems as DraftProblems, issuesOf, useDraftForm } from '../useDraftForm.ts';
import { useSmartProducts, useSmartText } from './SmartProducts.tsx';
import { daysOf, instrumentsFor } from './terms.ts';

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

const minor = (typed: string): bigint | null => {
  try {
    return parseMinor(typed.trim(), SCALE);
  } catch {
    return null;
  }
};

/** The body the contract takes, and the fields that are not right (the schema's and the form's own checks). */
function check(d: Draft, taken: bigint): { body: SmartProductBody; problems: Problems } {
  const problems: Problems = new Map();
  const timeframes = daysOf(d.timeframes);
  if (timeframes === null) problems.set('timeframes', 'checkValue');
  const fee = percentToRatio(d.feeShare);
  if (fee === null || Number(fee) > 1) problems.set('feeShare', 'checkValue');
  const body = {
    name: d.name.trim(),
    strategy: d.strategy,
    instruments: d.instrument ? [d.instrument] : [],
    timeframes: timeframes ?? [],
    minAmount: d.minAmount.trim(),
    maxAmount: d.maxAmount.trim(),
    capacity: d.capacity.trim(),
    feeShare: fee ?? '',
    enabled: d.enabled,
  };
  const parsed = smartProductBody.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '');
      problems.set(name === 'instruments' ? 'instrument' : name, 'checkValue');
    }
  const min = minor(d.minAmount);
  const max = minor(d.maxAmount);
  const capacity = minor(d.capacity);
  for (const [name, value] of [
    ['minAmount', min],
    ['maxAmount', max],
    ['capacity', capacity],
  ] as const)
    if (value === null || value <= 0n) problems.set(name, 'checkValue');
  if (!problems.has('maxAmount') && min !== null && max !== null && max < min)
    problems.set('maxAmount', 'maxBelowMin');
  if (!problems.has('capacity') && capacity !== null) {
    if (min !== null && capacity < min) problems.set('capacity', 'capacityBelowMin');
    else if (capacity < taken) problems.set('capacity', 'capacityBelowTaken');
  }
  return { body: body as SmartProductBody, problems };
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
export function SmartProductForm({
  product,
  onSaved,
  onCancel,
  labelledBy,
}: {
  product?: SmartProduct;
  /** The heading that names the form when it has none of its own (the create page's). */
  labelledBy?: string;
  onSaved: (saved: SmartProduct) => void;
  onCancel?: () => void;
}) {
  const { text } = useBackOffice();
  const t = useSmartText();
  const f = t.form;
  const headingId = useId();
  const products = useSmartProducts().data;
  const { draft, set, setDraft, problems, submit, save } = useDraftForm({
    initial: (): Draft =>
      product ? draftOf(product) : { ...EMPTY, instrument: instrumentsFor(EMPTY.strategy)[0] ?? '' },
    check: (d: Draft) => check(d, product ? (minor(product.taken) ?? 0n) : 0n),
    save: (body: SmartProductBody) =>
      product
        ? callAdmin('updateSmartProduct', { body: { ...body, id: product.id } })
        : callAdmin('createSmartProduct', { body }),
    invalidate: keys.smart,
    onSaved,
    fromServer: serverProblems,
  });
  const instruments = instrumentsFor(draft.strategy, products);
  const error = (name: string) => {
    const reason = problems.get(name);
    return reason ? t[reason] : undefined;
  };
  const field = (
    name: 'name' | 'timeframes' | 'minAmount' | 'maxAmount' | 'capacity' | 'feeShare',
    label: string,
    options: { hint?: string; mode?: 'decimal' | 'numeric' | 'text' } = {},
  ) => (
    <Field
      label={label}
      name={name}
      dir={name === 'name' ? 'auto' : 'ltr'}
      inputMode={options.mode}
      autoComplete="off"
      hint={options.hint}
      maxLength={name === 'name' ? 60 : 80}
      value={draft[name]}
      error={error(name)}
      onChange={(e) => set(name, e.target.value)}
    />
  );
  const instrumentId = useId();
  const instrumentError = error('instrument');
  return (
    <form
      className={product ? 'panel smart-form' : 'smart-form stack'}
      aria-labelledby={product ? headingId : labelledBy}
      onSubmit={submit}
      noValidate
    >
      {product ? <h3 id={headingId}>{fill(t.editHeading, { name: product.name })}</h3> : null}
      {product ? (
        <p className="smart-note" role="note">
          {f.change}
        </p>
      ) : null}
      <div className="smart-fields">
        {field('name', f.name, { mode: 'text' })}
        <SelectField
          label={f.strategy}
          name="strategy"
          value={draft.strategy}
          onChange={(e) => {
            const strategy = e.target.value as SmartStrategy;
            const offered = instrumentsFor(strategy, products);
            setDraft((d) => ({
              ...d,
              strategy,
              instrument: offered.includes(d.instrument) ? d.instrument : (offered[0] ?? ''),
            }));
          }}
          options={SMART_STRATEGIES.map((s) => ({ value: s, label: t.strategies[s] }))}
        />
        <div className="field">
          <label htmlFor={instrumentId}>{f.instrument}</label>
          <select
            id={instrumentId}
            name="instrument"
            dir="ltr"
            value={draft.instrument}
            aria-invalid={instrumentError ? true : undefined}
            aria-describedby={`${instrumentId}-hint${instrumentError ? ` ${instrumentId}-error` : ''}`}
            onChange={(e) => set('instrument', e.target.value)}
          >
            {instruments.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
          <p id={`${instrumentId}-hint`} className="hint">
            {f.instrumentHint}
          </p>
          {instrumentError ? (
            <p id={`${instrumentId}-error`} className="error-text">
              {instrumentError}
            </p>
          ) : null}
        </div>
        {field('timeframes', f.timeframes, { hint: f.timeframesHint })}
      </div>
      <fieldset className="smart-group">
        <legend>{f.amounts}</legend>
        <div className="smart-fields">
          {field('minAmount', `${f.minAmount} (USDT)`, { mode: 'decimal' })}
          {field('maxAmount', `${f.maxAmount} (USDT)`, { mode: 'decimal' })}
          {field('capacity', `${f.capacity} (USDT)`, { mode: 'decimal', hint: f.capacityHint })}
        </div>
      </fieldset>
      <div className="smart-fields smart-fill">
        {field('feeShare', f.feeShare, { mode: 'decimal', hint: f.feeShareHint })}
      </div>
      <label className="check">
        <input
          type="checkbox"
          name="enabled"
          checked={draft.enabled}
          onChange={(e) => set('enabled', e.target.checked)}
        />
        {f.enabled}
      </label>
      <SubmitRow
        failure={save.isError ? failureMessage(save.error, text.error.generic) : ''}
        busy={save.isPending}
        label={product ? t.save : t.create}
      >
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            {t.cancel}
          </button>
        ) : null}
      </SubmitRow>
    </form>
  );
}
