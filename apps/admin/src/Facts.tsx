import type { ReactNode } from 'react';

/** A facts list: label, value (left to right where it is an address, hash or amount). */
export function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="facts" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An address or a hash: monospaced, left to right in Arabic too; a dash when there is none. */
export const Code = ({ value }: { value: string | null }) =>
  value ? (
    <code dir="ltr" className="wallet-code">
      {value}
    </code>
  ) : (
    <>—</>
  );
