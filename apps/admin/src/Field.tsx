import { type InputHTMLAttributes, useEffect, useId, useRef, useState } from 'react';
import { failureMessage } from './api.ts';

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
  const describedBy =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="error-text">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Alert({ message }: { message: string }) {
  return message ? (
    <p className="alert" role="alert">
      {message}
    </p>
  ) : null;
}

/**
 * One item loaded for a detail view: the item once loaded (focus then moves to the heading), the
 * load's failure, and a setter for the item an action returns.
 */
export function useLoadedItem<T>(load: () => Promise<T>, key: unknown, genericError: string) {
  const [item, setItem] = useState<T | null>(null);
  const [failure, setFailure] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the item's key changes, not on each render's new closure
  useEffect(() => {
    load()
      .then((loaded) => {
        setItem(loaded);
        heading.current?.focus();
      })
      .catch((error: unknown) => setFailure(failureMessage(error, genericError)));
  }, [key, genericError]);
  return { item, setItem, failure, setFailure, heading };
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
