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
import { basketCodes } from './basket.ts';
import { useEarnText } from './EarnProducts.tsx';

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

type Checked = { body: EarnProductBody; invalid: Set<string> };

/** The body the contract takes, and the fields that are not right (the schema's and the form's own checks). */
function check(d: Draft): Checked {
  const invalid = new Set<string>();
  const annualRate = d.income === 'static' ? percentToRatio(d.annualRate) : null;
  if (d.income === 'static' && annualRate === null) invalid.add('annualRate');
  const penaltyRate = d.flexible ? '0' : percentToRatio(d.penaltyRate);
  if (penaltyRate === null) invalid.add('penaltyRate');
  const basket = d.income === 'dynamic' ? basketCodes(d.basket) : [];
  if (d.income === 'dynamic' && basket.length === 0) invalid.add('basket');
  const termDays = d.flexible ? null : /^\d{1,4}$/.test(d.termDays.trim()) ? Number(d.termDays) : Number.NaN;
  const body = {
    type: d.type,
    name: d.name.trim(),
    asset: d.asset,
    income: d.income,
    termDays,
    annualRate,
    basket,
    minAmount: d.minAmount.trim(),
    maxAmount: d.maxAmount.trim(),
    capacity: d.capacity.trim(),
    penaltyRate: penaltyRate ?? '',
    requiresKyc: d.requiresKyc,
    onePerCustomer: d.onePerCustomer,
    enabled: d.enabled,
  };
  const parsed = earnProductBody.safeParse(body);
  if (!parsed.success) for (const issue of parsed.error.issues) invalid.add(String(issue.path[0] ?? ''));
  const scale = ASSET_SCALES[d.asset];
  for (const name of ['minAmount', 'maxAmount', 'capacity'] as const) {
    try {
      parseMinor(body[name], scale);
    } catch {
      invalid.add(name);
    }
  }
  return { body: body as EarnProductBody, invalid };
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
function checked(d: Draft): { body: EarnProductBody; problems: Problems<'checkValue' | 'maxBelowMin'> } {
  const { body, invalid } = check(d);
  const problems: Problems<'checkValue' | 'maxBelowMin'> = new Map(
    [...invalid].map((name) => [name, 'checkValue'] as const),
  );
  if (maxBelowMin(d) && !problems.has('maxAmount')) problems.set('maxAmount', 'maxBelowMin');
  return { body, problems };
}

/** The fields named by a 10026 answer's `{path}` issues. */
/**
 * A product's terms (admins only): every field of the contract's earnProductBody. Static
 * products take an annual rate, dynamic ones a basket of instruments; a fixed term takes lock
 * days and an early-exit penalty. Without `product` it creates one.
 */
export function ProductForm({
  product,
  onSaved,
  onCancel,
  labelledBy,
}: {
  product?: EarnProduct;
  /** The heading that names the form when it has none of its own (the create page's). */
  labelledBy?: string;
  onSaved: (saved: EarnProductAdmin) => void;
  onCancel?: () => void;
}) {
  const { text } = useBackOffice();
  const t = useEarnText();
  const f = t.form;
  const headingId = useId();
  const { draft, set, problems, submit, save } = useDraftForm({
    initial: (): Draft => (product ? draftOf(product) : EMPTY),
    check: checked,
    save: (body: EarnProductBody) =>
      product
        ? callAdmin('updateEarnProduct', { body: { ...body, id: product.id } })
        : callAdmin('createEarnProduct', { body }),
    invalidate: keys.earn,
    onSaved,
    fromServer: (data) => new Map(issuesOf(data).map((i) => [i.name, 'checkValue'] as const)),
  });
  const error = (name: string) => {
    const reason = problems.get(name);
    return reason ? t[reason] : undefined;
  };
  const text_ = (name: 'name' | 'minAmount' | 'maxAmount' | 'capacity', extra: { hint?: string } = {}) => (
    <Field
      label={name === 'name' ? f.name : `${f[name]} (${draft.asset})`}
      name={name}
      dir={name === 'name' ? 'auto' : 'ltr'}
      inputMode={name === 'name' ? undefined : 'decimal'}
      autoComplete="off"
      value={draft[name]}
      error={error(name)}
      onChange={(e) => set(name, e.target.value)}
      {...extra}
    />
  );
  return (
    <form
      className={product ? 'panel earn-form' : 'earn-form stack'}
      aria-labelledby={product ? headingId : labelledBy}
      onSubmit={submit}
      noValidate
    >
      {product ? <h3 id={headingId}>{fill(t.editHeading, { name: product.name })}</h3> : null}
      <div className="earn-fields">
        <SelectField
          label={f.type}
          name="type"
          value={draft.type}
          onChange={(e) => set('type', e.target.value as EarnType)}
          options={EARN_TYPES.map((v) => ({ value: v, label: t.types[v] }))}
        />
        {text_('name')}
        <SelectField
          label={f.asset}
          name="asset"
          // A product keeps its asset: its reserve, investments and ledger accounts are in it.
          disabled={product !== undefined}
          value={draft.asset}
          onChange={(e) => set('asset', e.target.value as Asset)}
          options={EARN_ASSETS.map((v) => ({ value: v, label: v }))}
        />
        <SelectField
          label={f.income}
          name="income"
          value={draft.income}
          onChange={(e) => set('income', e.target.value as EarnIncome)}
          options={EARN_INCOMES.map((v) => ({ value: v, label: t.incomes[v] }))}
        />
      </div>
      <fieldset className="earn-group">
        <legend>{t.term}</legend>
        <label className="check">
          <input
            type="checkbox"
            name="flexible"
            checked={draft.flexible}
            onChange={(e) => set('flexible', e.target.checked)}
          />
          {f.flexible}
        </label>
        {draft.flexible ? null : (
          <div className="earn-fields">
            <Field
              label={f.termDays}
              name="termDays"
              dir="ltr"
              inputMode="numeric"
              autoComplete="off"
              hint={f.termDaysHint}
              value={draft.termDays}
              error={error('termDays')}
              onChange={(e) => set('termDays', e.target.value)}
            />
            <Field
              label={f.penaltyRate}
              name="penaltyRate"
              dir="ltr"
              inputMode="decimal"
              autoComplete="off"
              hint={f.penaltyRateHint}
              value={draft.penaltyRate}
              error={error('penaltyRate')}
              onChange={(e) => set('penaltyRate', e.target.value)}
            />
          </div>
        )}
      </fieldset>
      <fieldset className="earn-group">
        <legend>{t.rateLegend}</legend>
        {draft.income === 'static' ? (
          <Field
            label={f.annualRate}
            name="annualRate"
            dir="ltr"
            inputMode="decimal"
            autoComplete="off"
            hint={f.annualRateHint}
            value={draft.annualRate}
            error={error('annualRate')}
            onChange={(e) => set('annualRate', e.target.value)}
          />
        ) : (
          <Field
            label={f.basket}
            name="basket"
            dir="ltr"
            autoComplete="off"
            hint={f.basketHint}
            value={draft.basket}
            error={error('basket')}
            onChange={(e) => set('basket', e.target.value)}
          />
        )}
        {product ? (
          <p className="earn-note" role="note">
            {f.rateChange}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="earn-group">
        <legend>{t.limitsHeader}</legend>
        <div className="earn-fields">
          {text_('minAmount')}
          {text_('maxAmount')}
          {text_('capacity')}
        </div>
      </fieldset>
      <fieldset className="earn-group">
        <legend>{t.rules}</legend>
        {(['requiresKyc', 'onePerCustomer', 'enabled'] as const).map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              name={name}
              checked={draft[name]}
              onChange={(e) => set(name, e.target.checked)}
            />
            {f[name]}
          </label>
        ))}
      </fieldset>
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
