import {
  ASSET_SCALES,
  LOAN_ASSETS,
  type LoanProduct,
  type LoanProductAdmin,
  type LoanProductBody,
  loanProductBody,
  parseMinor,
} from '@swx/contract';
import { useId } from 'react';
import { callAdmin, failureMessage } from '../api.ts';
import { useBackOffice } from '../context.ts';
import { plain } from '../DataTable.tsx';
import { Field, SelectField, SubmitRow } from '../Field.tsx';
import { keys } from '../query.ts';
import { percentToRatio, ratioToPercent } from '../rates.ts';
import { fill } from '../text.ts';
import { issuesOf, type Problems, useDraftForm } from '../useDraftForm.ts';
import { useLoanText } from './LoanProducts.tsx';
import { termsOf } from './terms.ts';

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

type Checked = { body: LoanProductBody; invalid: Set<string> };

/** The body the contract takes, and the fields that are not right (the schema's and the form's own checks). */
function check(d: Draft): Checked {
  const invalid = new Set<string>();
  const rate = (name: 'dailyRate' | 'lateDailyRate' | 'lateCapRate') => {
    const ratio = percentToRatio(d[name]);
    if (ratio === null) invalid.add(name);
    return ratio ?? '';
  };
  const terms = termsOf(d.terms);
  if (terms === null) invalid.add('terms');
  const freeDays = /^\d{1,3}$/.test(d.interestFreeDays.trim()) ? Number(d.interestFreeDays) : Number.NaN;
  const body = {
    name: d.name.trim(),
    asset: d.asset,
    minAmount: d.minAmount.trim(),
    maxAmount: d.maxAmount.trim(),
    terms: terms ?? [],
    dailyRate: rate('dailyRate'),
    interestFreeDays: freeDays,
    lateDailyRate: rate('lateDailyRate'),
    lateCapRate: rate('lateCapRate'),
    enabled: d.enabled,
  };
  const parsed = loanProductBody.safeParse(body);
  if (!parsed.success) for (const issue of parsed.error.issues) invalid.add(String(issue.path[0] ?? ''));
  const scale = ASSET_SCALES[d.asset];
  for (const name of ['minAmount', 'maxAmount'] as const) {
    try {
      if (parseMinor(body[name], scale) <= 0n) invalid.add(name);
    } catch {
      invalid.add(name);
    }
  }
  return { body: body as LoanProductBody, invalid };
}

/** Is the maximum below the minimum (both valid amounts of the asset)? */
function maxBelowMin(d: Draft): boolean {
  try {
    const scale = ASSET_SCALES[d.asset];
    return parseMinor(d.maxAmount, scale) < parseMinor(d.minAmount, scale);
  } catch {
    return false;
  }
}

/** The body, or each field to fix: a value that does not check, or a maximum below the minimum. */
function checked(d: Draft): { body: LoanProductBody; problems: Problems<'checkValue' | 'maxBelowMin'> } {
  const { body, invalid } = check(d);
  const problems: Problems<'checkValue' | 'maxBelowMin'> = new Map(
    [...invalid].map((name) => [name, 'checkValue'] as const),
  );
  if (maxBelowMin(d) && !problems.has('maxAmount')) problems.set('maxAmount', 'maxBelowMin');
  return { body, problems };
}

/**
 * A loan product's terms (admins only): every field of the contract's loanProductBody. Without
 * `product` it creates one; with it, it changes the terms of new applications.
 */
export function LoanProductForm({
  product,
  onSaved,
  onCancel,
  labelledBy,
}: {
  product?: LoanProduct;
  /** The heading that names the form when it has none of its own (the create page's). */
  labelledBy?: string;
  onSaved: (saved: LoanProductAdmin) => void;
  onCancel?: () => void;
}) {
  const { text } = useBackOffice();
  const t = useLoanText();
  const f = t.form;
  const headingId = useId();
  const { draft, set, problems, submit, save } = useDraftForm({
    initial: (): Draft => (product ? draftOf(product) : EMPTY),
    check: checked,
    save: (body: LoanProductBody) =>
      product
        ? callAdmin('updateLoanProduct', { body: { ...body, id: product.id } })
        : callAdmin('createLoanProduct', { body }),
    invalidate: keys.loans,
    onSaved,
    fromServer: (data) => new Map(issuesOf(data).map((i) => [i.name, 'checkValue'] as const)),
  });
  const error = (name: string) => {
    const reason = problems.get(name);
    return reason ? t[reason] : undefined;
  };
  const field = (
    name: Exclude<keyof Draft, 'asset' | 'enabled'>,
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
  return (
    <form
      className={product ? 'panel loan-form' : 'loan-form stack'}
      aria-labelledby={product ? headingId : labelledBy}
      onSubmit={submit}
      noValidate
    >
      {product ? <h3 id={headingId}>{fill(t.editHeading, { name: product.name })}</h3> : null}
      {product ? (
        <p className="loan-note" role="note">
          {f.change}
        </p>
      ) : null}
      <div className="loan-fields">
        {field('name', f.name, { mode: 'text' })}
        <div className="stack">
          <SelectField
            label={f.asset}
            name="asset"
            // A product keeps its asset: its loans and pool are in it.
            disabled={product !== undefined}
            value={draft.asset}
            onChange={(e) => set('asset', e.target.value as Asset)}
            options={LOAN_ASSETS.map((v) => ({ value: v, label: v }))}
          />
          {product ? <p className="hint">{f.assetKept}</p> : null}
        </div>
      </div>
      <fieldset className="loan-group">
        <legend>{f.amounts}</legend>
        <div className="loan-fields">
          {field('minAmount', `${f.minAmount} (${draft.asset})`, { mode: 'decimal' })}
          {field('maxAmount', `${f.maxAmount} (${draft.asset})`, { mode: 'decimal', hint: f.maxHint })}
          {field('terms', f.terms, { hint: f.termsHint })}
        </div>
      </fieldset>
      <fieldset className="loan-group">
        <legend>{f.interest}</legend>
        <div className="loan-fields">
          {field('dailyRate', f.dailyRate, { mode: 'decimal', hint: f.dailyRateHint })}
          {field('interestFreeDays', f.interestFreeDays, { mode: 'numeric', hint: f.interestFreeHint })}
        </div>
      </fieldset>
      <fieldset className="loan-group">
        <legend>{f.latePayment}</legend>
        <div className="loan-fields">
          {field('lateDailyRate', f.lateDailyRate, { mode: 'decimal', hint: f.lateDailyHint })}
          {field('lateCapRate', f.lateCapRate, { mode: 'decimal', hint: f.lateCapHint })}
        </div>
      </fieldset>
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
