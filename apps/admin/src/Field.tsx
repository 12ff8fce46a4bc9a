import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';

/** A labelled input with its hint and error tied to it for screen readers. */
export function Field({
  label,
  hint,
  error,
  ...input
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...described(id, hint, error)} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** A control's invalid mark and what describes it: its hint and error (`${id}-hint`, `${id}-error`). */
const described = (id: string, hint: string | undefined, error: string | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby':
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
});

/** A field's hint and error under its control. */
function FieldNotes({
  id,
  hint,
  error,
}: {
  id: string;
  hint?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </>
  );
}

/** A field's error under its control, which names it in aria-describedby as `${id}-error`. */
export function FieldError({ id, error }: { id: string; error?: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="error-text">
      {error}
    </p>
  ) : null;
}

export function Alert({ message }: { message: string }) {
  return message ? (
    <p className="alert" role="alert">
      {message}
    </p>
  ) : null;
}

/** What an action did, said to screen readers too; nothing when there is nothing to say. */
export function Done({ message }: { message: string }) {
  return message ? (
    <p className="success" role="status">
      {message}
    </p>
  ) : null;
}

/** A form's end: its failure, then the submit button (and any buttons after it) in a row. */
export function SubmitRow({
  failure,
  busy,
  label,
  tone = 'primary',
  children,
}: {
  failure: string;
  busy: boolean;
  label: string;
  tone?: 'primary' | 'danger';
  children?: ReactNode;
}) {
  return (
    <>
      <Alert message={failure} />
      <div className="actions">
        <button type="submit" className={tone} disabled={busy}>
          {label}
        </button>
        {children}
      </div>
    </>
  );
}

/** What a detail view shows before its item is there: the failure, or that it is loading. */
export function Pending({ failure, loading }: { failure: string; loading: string }) {
  return failure ? (
    <Alert message={failure} />
  ) : (
    <p role="status" className="muted">
      {loading}
    </p>
  );
}

/**
 * A labelled select; `hiddenLabel` keeps the label for screen readers only (inside a table row).
 * Its hint and error are tied to it like a Field's.
 */
export function SelectField({
  label,
  hiddenLabel = false,
  hint,
  error,
  options,
  ...select
}: {
  label: string;
  hiddenLabel?: boolean;
  hint?: string | undefined;
  error?: string | undefined;
  options: { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className={hiddenLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <select id={id} {...described(id, hint, error)} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
