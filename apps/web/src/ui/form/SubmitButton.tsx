import type { ReactNode } from 'react';

/**
 * A form's submit button that keeps focus while the form is sent (WCAG 2.4.3): `busy` makes it
 * `aria-disabled` (not `disabled`, which would drop focus to the first field), a press or Enter
 * does nothing meanwhile, and `useContractForm` says "Sending…". Use it for `form.busy`
 * (`<SubmitButton busy={form.busy}>`); `disabled` is for a form that cannot be sent at all.
 */
export function SubmitButton({
  busy,
  disabled,
  className = 'button primary large block',
  children,
  testId,
}: {
  busy: boolean;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <button
      type="submit"
      className={className}
      disabled={disabled}
      aria-disabled={busy || undefined}
      data-testid={testId}
      onClick={(event) => {
        if (busy) event.preventDefault();
      }}
    >
      {children}
    </button>
  );
}
