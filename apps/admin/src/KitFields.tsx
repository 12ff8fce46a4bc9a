import { parseMinor } from '@swx/contract';
import type { HTMLAttributes } from 'react';
import { Field, SelectField } from './Field.tsx';
import { percentToRatio } from './rates.ts';
import type { Problems } from './useDraftForm.ts';
import './kit.css';

/**
 * The back-office kit's fields: a form is a declarative list of parts (fields, rows of fields,
 * groups with a legend, notes); the same list renders the form and checks its draft.
 *
 * Kinds: `text` (trimmed; `parse` for a list typed on one line), `amount` (a decimal of the
 * form's asset, shown after the label), `rate` (typed in per cent, sent as a ratio), `percent`
 * (a share of a whole, in per cent, at most 100), `days` (a whole number of days, or with `list`
 * several: "7, 14 30"), `select`, `toggle` (a checkbox).
 */
export type FieldKind = 'text' | 'amount' | 'rate' | 'percent' | 'days' | 'select' | 'toggle';

/** What a form's fields hold, as typed. */
export type Draft = Record<string, unknown>;

export type FieldSpec<D extends Draft> = {
  name: keyof D & string;
  kind: FieldKind;
  label: string;
  hint?: string | undefined;
  /** Shown and checked only when true; otherwise `off` is sent. */
  shown?: boolean;
  off?: unknown;
  /** The body's name for the field, when it is not the field's own; `local`: the form's alone, not sent. */
  sendAs?: string;
  local?: boolean;
  /** text: the typed value to send, or null when it does not check (then `fallback` is sent). */
  parse?: (typed: string) => unknown;
  fallback?: unknown;
  /** amount: above zero. */
  positive?: boolean;
  /** days: how many digits a number of days has at most; `list`: several days. */
  digits?: number;
  list?: boolean;
  /** select: the choices, what is sent for one, and a change that moves other fields too. */
  options?: { value: string; label: string }[];
  send?: (value: string) => unknown;
  change?: (value: string, draft: D) => D;
  disabled?: boolean;
  dir?: 'ltr' | 'auto';
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  maxLength?: number;
};

export type Part<D extends Draft> =
  | FieldSpec<D>
  | { row: Part<D>[]; fill?: boolean; shown?: boolean }
  | { legend: string; parts: Part<D>[] }
  | { note: string };

/** A contract schema, as the kit uses it (zod's safeParse). */
export type Schema<Body> = {
  safeParse: (
    value: unknown,
  ) =>
    | { success: true; data: Body }
    | { success: false; error: { issues: readonly { path: PropertyKey[] }[] } };
};

/** Whole days typed with commas or spaces (Arabic and CJK commas too), each once, in order; null when a part is not. */
export function daysOf(typed: string, digits: number): number[] | null {
  const parts = typed.split(/[\s,،、，;]+/).filter(Boolean);
  const day = new RegExp(`^\\d{1,${digits}}$`);
  if (parts.length === 0 || parts.some((p) => !day.test(p))) return null;
  return [...new Set(parts.map(Number))].sort((a, b) => a - b);
}

/** An amount typed at a scale in minor units, or null when it is not one. */
export function minorOf(typed: string, scale: number): bigint | null {
  try {
    return parseMinor(typed.trim(), scale);
  } catch {
    return null;
  }
}

/** Every field of a list of parts, shown or not (rows and groups opened; a row not shown hides its fields). */
export function fieldsOf<D extends Draft>(parts: readonly Part<D>[]): FieldSpec<D>[] {
  return parts.flatMap((part) => {
    if ('kind' in part) return [part];
    if ('parts' in part) return fieldsOf(part.parts);
    if (!('row' in part)) return [];
    const fields = fieldsOf(part.row);
    return part.shown === false ? fields.map((field) => ({ ...field, shown: false })) : fields;
  });
}

/** One field's value for the body, and whether it checks (before the schema's own checks). */
function sentValue<D extends Draft>(
  field: FieldSpec<D>,
  draft: D,
  scale: number,
): { value: unknown; ok: boolean } {
  const typed = draft[field.name];
  if (field.kind === 'toggle') return { value: typed, ok: true };
  const text = String(typed ?? '');
  if (field.kind === 'select') return { value: field.send ? field.send(text) : text, ok: true };
  if (field.kind === 'amount') {
    const minor = minorOf(text, scale);
    return { value: text.trim(), ok: minor !== null && (!field.positive || minor > 0n) };
  }
  if (field.kind === 'rate' || field.kind === 'percent') {
    const ratio = percentToRatio(text);
    return { value: ratio ?? '', ok: ratio !== null && (field.kind === 'rate' || Number(ratio) <= 1) };
  }
  if (field.kind === 'days' && field.list) {
    const days = daysOf(text, field.digits ?? 4);
    return { value: days ?? [], ok: days !== null };
  }
  if (field.kind === 'days') {
    const day = new RegExp(`^\\d{1,${field.digits ?? 4}}$`);
    // Not a number of days: NaN, which the schema refuses.
    return { value: day.test(text.trim()) ? Number(text) : Number.NaN, ok: true };
  }
  if (!field.parse) return { value: text.trim(), ok: true };
  const parsed = field.parse(text);
  return parsed === null ? { value: field.fallback, ok: false } : { value: parsed, ok: true };
}

/**
 * The body the contract takes from a draft, and each field that is not right: its kind's own
 * check, then the schema's (an issue's path named by the field that sends it).
 */
export function checkFields<D extends Draft, Body>(
  fields: readonly FieldSpec<D>[],
  draft: D,
  schema: Schema<Body>,
  scale: number,
): { body: Body; problems: Problems<'checkValue'> } {
  const body: Record<string, unknown> = {};
  const problems: Problems<'checkValue'> = new Map();
  const fieldOf = new Map<string, string>();
  for (const field of fields) {
    if (field.local) continue;
    const key = field.sendAs ?? field.name;
    fieldOf.set(key, field.name);
    if (field.shown === false) {
      body[key] = field.off;
      continue;
    }
    const { value, ok } = sentValue(field, draft, scale);
    body[key] = value;
    if (!ok) problems.set(field.name, 'checkValue');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      problems.set(fieldOf.get(key) ?? key, 'checkValue');
    }
  return { body: body as Body, problems };
}

/** A maximum below the minimum (both amounts that check) is said on the maximum. */
export function markMaxBelowMin(
  problems: Map<string, string>,
  draft: { minAmount: string; maxAmount: string },
  scale: number,
): void {
  if (problems.has('maxAmount')) return;
  const min = minorOf(draft.minAmount, scale);
  const max = minorOf(draft.maxAmount, scale);
  if (min !== null && max !== null && max < min) problems.set('maxAmount', 'maxBelowMin');
}

/** What the parts are drawn with: the draft, its setters, the message of a field to fix, the asset. */
export type PartsContext<D extends Draft> = {
  draft: D;
  setDraft: (next: (d: D) => D) => void;
  error: (name: string) => string | undefined;
  /** The asset an amount is of, shown after its label. */
  unit?: string | undefined;
  /** The longest a typed field may be, unless its own says otherwise. */
  maxLength?: number | undefined;
};

/** One field of the kit, drawn by its kind. */
export function KitField<D extends Draft>({ field, at }: { field: FieldSpec<D>; at: PartsContext<D> }) {
  const { draft, setDraft } = at;
  const set = (value: unknown) => setDraft((d) => ({ ...d, [field.name]: value }));
  if (field.kind === 'toggle')
    return (
      <label className="check">
        <input
          type="checkbox"
          name={field.name}
          checked={Boolean(draft[field.name])}
          onChange={(e) => set(e.target.checked)}
        />
        {field.label}
      </label>
    );
  if (field.kind === 'select')
    return (
      <SelectField
        label={field.label}
        name={field.name}
        dir={field.dir}
        disabled={field.disabled}
        hint={field.hint}
        error={at.error(field.name)}
        value={String(draft[field.name])}
        onChange={(e) => {
          const { value } = e.target;
          setDraft((d) => (field.change ? field.change(value, d) : { ...d, [field.name]: value }));
        }}
        options={field.options ?? []}
      />
    );
  const mode =
    field.kind === 'text'
      ? undefined
      : field.kind === 'days'
        ? field.list
          ? undefined
          : 'numeric'
        : 'decimal';
  return (
    <Field
      label={field.kind === 'amount' && at.unit ? `${field.label} (${at.unit})` : field.label}
      name={field.name}
      dir={field.dir ?? (field.kind === 'text' && !field.parse ? 'auto' : 'ltr')}
      inputMode={field.inputMode ?? mode}
      autoComplete="off"
      hint={field.hint}
      maxLength={field.maxLength ?? at.maxLength}
      value={String(draft[field.name] ?? '')}
      error={at.error(field.name)}
      onChange={(e) => set(e.target.value)}
    />
  );
}

/** The name a part is keyed by among its siblings. */
const keyOf = <D extends Draft>(part: Part<D>): string =>
  'kind' in part
    ? part.name
    : 'row' in part
      ? `row:${part.row.map(keyOf).join(',')}`
      : 'legend' in part
        ? `group:${part.legend}`
        : `note:${part.note}`;

/** A list of parts: fields, rows of fields (a grid), groups (a fieldset and its legend) and notes. */
export function KitParts<D extends Draft>({ parts, at }: { parts: readonly Part<D>[]; at: PartsContext<D> }) {
  return (
    <>
      {parts.map((part) => {
        if ('kind' in part)
          return part.shown === false ? null : <KitField key={part.name} field={part} at={at} />;
        if ('row' in part)
          return part.shown === false ? null : (
            <div key={keyOf(part)} className={part.fill ? 'kit-fields kit-fill' : 'kit-fields'}>
              <KitParts parts={part.row} at={at} />
            </div>
          );
        if ('legend' in part)
          return (
            <fieldset key={keyOf(part)} className="kit-group">
              <legend>{part.legend}</legend>
              <KitParts parts={part.parts} at={at} />
            </fieldset>
          );
        return (
          <p key={keyOf(part)} className="kit-note" role="note">
            {part.note}
          </p>
        );
      })}
    </>
  );
}
