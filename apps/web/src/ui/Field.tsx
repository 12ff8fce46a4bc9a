import type { InputHTMLAttributes, ReactNode, RefObject } from 'react';
import { useId } from 'react';
import { Isolated } from './bidi.tsx';

/**
 * The ids a field's control points to with `aria-describedby` (its hint and its error, when
 * shown), and the two paragraphs under it.
 */
export function useFieldNotes(hint: string | undefined, error: string | undefined) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return {
    id,
    describedBy: [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined,
    notes: (
      <>
        {hint ? (
          <p id={hintId} className="field-hint">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="field-error">
            {error}
          </p>
        ) : null}
      </>
    ),
  };
}

/** A labelled field with its hint and error tied to the input for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
  ...input
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  children?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const { id, describedBy, notes } = useFieldNotes(hint, error);
  return (
    <div className="field">
      <label htmlFor={id}>
        <Isolated text={label} />
      </label>
      <div className="field-row">
        <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {children}
      </div>
      {notes}
    </div>
  );
}

/** A form's error (a server refusal), spoken as soon as it shows (role=alert). */
export function FormError({ message, id }: { message: string; id?: string }) {
  return message ? (
    <p id={id} className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}

/**
 * A modal dialog's buttons: one that closes it, and the primary one, which submits the dialog's
 * form when no `onConfirm` is given. Their names may hold amounts ("Swap 100.00 USDT for …"):
 * isolated by elements, so the names carry no bidi controls. A disabled primary (sending, or its
 * quote ran out) is `aria-disabled`, not `disabled`: focus stays on it (WCAG 2.4.3), it says it
 * is unavailable and why, and a press or Enter does nothing.
 */
export function DialogButtons({
  dialog,
  cancel,
  confirm,
  disabled,
  onConfirm,
  why,
  className = 'row end',
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  cancel: string;
  confirm: string;
  disabled: boolean;
  onConfirm?: () => void;
  /** The id of what says why the primary action is disabled, when it is (aria-describedby). */
  why?: string | undefined;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
        <Isolated text={cancel} />
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className="button primary"
        aria-disabled={disabled || undefined}
        aria-describedby={disabled ? why : undefined}
        onClick={(event) => {
          // Also the default button of the form's implicit submission (Enter in a field).
          if (disabled) event.preventDefault();
          else onConfirm?.();
        }}
      >
        {/* One box of words: the button lays out its children as a flex row. */}
        <span>
          <Isolated text={confirm} />
        </span>
      </button>
    </div>
  );
}
