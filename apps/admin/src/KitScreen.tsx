import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Field } from './Field.tsx';

/**
 * A screen of the back office: its panel, labelled by its heading (which takes the focus after a
 * navigation, BackOffice.tsx), then what the screen shows.
 */
export function Screen({
  heading,
  className = 'panel',
  children,
}: {
  heading: string;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={className} aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** The heading of a page of one item: focused once the item has loaded. */
export function useFocusOnLoad(loaded: boolean) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [loaded]);
  return heading;
}

/** A reason staff give for what they do (lock a customer, reject a review, resolve an alert). */
export function useReason(tooShort: string) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  return {
    value,
    setValue,
    error,
    setError,
    /** The reason trimmed, or null (and `tooShort` shown) when it has fewer than 3 characters. */
    checked: (): string | null => {
      const trimmed = value.trim();
      if (trimmed.length < 3) {
        setError(tooShort);
        return null;
      }
      setError(undefined);
      return trimmed;
    },
  };
}

/** The field of a reason (at most 500 characters), its error under it. */
export function ReasonField({
  label,
  hint,
  reason,
}: {
  label: string;
  hint?: string;
  reason: ReturnType<typeof useReason>;
}) {
  return (
    <Field
      label={label}
      hint={hint}
      value={reason.value}
      maxLength={500}
      error={reason.error}
      onChange={(e) => reason.setValue(e.target.value)}
    />
  );
}

/** A section of a page under its own heading (`id` is the heading's, which labels the section). */
export function KitSection({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section className="kit-section" aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      {children}
    </section>
  );
}
