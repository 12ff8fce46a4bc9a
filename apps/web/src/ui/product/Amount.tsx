import { AMOUNT_INPUT } from '@swx/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { minorOf } from '../../app/money.ts';
import { Isolated } from '../bidi.tsx';
import { normalizeDecimal } from '../decimalInput.ts';
import { Field } from '../Field.tsx';
import { Loading } from '../PageState.tsx';
import './product.css';

/** How long what is typed rests before it is quoted. */
export const QUOTE_DEBOUNCE_MS = 400;

/** The value once it has rested `ms` (what is quoted: not every keystroke). */
export function useSettled<T>(value: T, ms = QUOTE_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What is wrong with a typed amount: nothing typed, not an amount, under the least, over the most. */
export type AmountProblem = 'empty' | 'invalid' | 'below' | 'above';

export type AmountCheck = {
  /** The typed text as a decimal (local digits and a decimal comma read). */
  amount: string;
  /** The amount in the asset's minor units, when it is one. */
  minor: bigint | null;
  problem: AmountProblem | null;
};

/** Reads a typed amount of `asset` and checks it against the product's range (either end may be absent). */
export function checkAmount(
  typed: string,
  asset: string,
  range: { min?: string | null | undefined; max?: string | null | undefined } = {},
): AmountCheck {
  const amount = normalizeDecimal(typed);
  const minor = AMOUNT_INPUT.test(amount.trim()) ? minorOf(amount, asset) : null;
  const low = range.min == null ? null : minorOf(range.min, asset);
  const high = range.max == null ? null : minorOf(range.max, asset);
  const problem: AmountProblem | null =
    typed.trim() === ''
      ? 'empty'
      : minor === null || minor <= 0n
        ? 'invalid'
        : low !== null && minor < low
          ? 'below'
          : high !== null && minor > high
            ? 'above'
            : null;
  return { amount, minor, problem };
}

/**
 * The error of an amount field in the product's words: `required` for nothing typed (left out
 * until the customer tries to go on), `invalid`, and `range` for outside the range (or `below`
 * and `above` apart).
 */
export function amountMessage(
  check: AmountCheck,
  words: { required?: string | undefined; invalid: string; range?: string; below?: string; above?: string },
): string | undefined {
  switch (check.problem) {
    case 'empty':
      return words.required;
    case 'invalid':
      return words.invalid;
    case 'below':
      return words.below ?? words.range;
    case 'above':
      return words.above ?? words.range;
    default:
      return undefined;
  }
}

/**
 * The amount step: the amount of an asset (typed in the reader's digits, read left to right), its
 * hint (what is available, the product's range: the parts given, joined by " · "), its error, and
 * a "max" button that fills in the most one can put in when that is more than nothing.
 */
export function AmountField({
  label,
  name = 'amount',
  value,
  onChange,
  hint,
  error,
  max,
}: {
  label: string;
  name?: string;
  value: string;
  onChange: (typed: string) => void;
  hint?: (string | false | undefined)[];
  error: string | undefined;
  max?:
    | {
        /** The most, as a decimal of `asset`. */
        value: string;
        asset: string;
        text: string;
        /** Said to screen readers after `text` (the amount it fills in). */
        label: string;
        testId?: string;
      }
    | undefined;
}) {
  const hintText = hint?.filter(Boolean).join(' · ') || undefined;
  return (
    <Field
      label={label}
      name={name}
      inputMode="decimal"
      autoComplete="off"
      dir="ltr"
      value={value}
      hint={hintText}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    >
      {max && (minorOf(max.value, max.asset) ?? 0n) > 0n ? (
        <button
          type="button"
          className="button ghost small"
          data-testid={max.testId}
          onClick={() => onChange(max.value)}
        >
          {max.text}
          {/* The label's amount comes isolated (LRI … PDI): drawn by elements, so the name has no controls. */}
          <span className="visually-hidden">
            {' '}
            <Isolated text={max.label} />
          </span>
        </button>
      ) : null}
    </Field>
  );
}

/**
 * The live quote under the amount: its title (and a note), then what there is to say: `idle`
 * (nothing to quote yet: a string is said as a muted line), `refusal` (the quote was refused),
 * the figures once `ready`, or loading. Busy while it is being asked for.
 */
export function LiveQuote({
  className,
  testId,
  title,
  note,
  busy,
  idle,
  refusal,
  ready,
  children,
}: {
  className: string;
  testId: string;
  title: string;
  note?: ReactNode;
  busy: boolean;
  idle?: ReactNode;
  refusal?: ReactNode;
  ready: boolean;
  children?: ReactNode;
}) {
  return (
    <div className={`product-live-quote ${className}`} data-testid={testId} aria-busy={busy || undefined}>
      <h3>{title}</h3>
      {note}
      {typeof idle === 'string' ? (
        <p className="muted small">{idle}</p>
      ) : (
        (idle ?? refusal ?? (ready ? children : <Loading />))
      )}
    </div>
  );
}

/**
 * The balance is short of the amount: said, with the way to deposit (`deposit`, left out where
 * there is none, as in the demo book). `id` lets a button that cannot go on say why.
 */
export function ShortBalance({
  text,
  deposit,
  id,
}: {
  text: string;
  deposit?: string | null | undefined;
  id?: string | undefined;
}) {
  return (
    <div className="notice product-offer" id={id} data-testid="short-balance">
      <p>{text}</p>
      {deposit ? (
        <p>
          <Link to="/profile/deposit">{deposit}</Link>
        </p>
      ) : null}
    </div>
  );
}
