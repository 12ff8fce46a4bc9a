import { adminCalls } from '@swx/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { allowed } from './api.ts';
import { useBackOffice } from './context.ts';
import { KitSection } from './KitScreen.tsx';

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

/** A facts list under its own heading (`id` is the heading's, `testId` the list's). */
export function FactsSection({
  id,
  heading,
  rows,
  testId,
}: {
  id: string;
  heading: string;
  rows: [string, ReactNode][];
  testId: string;
}) {
  return (
    <KitSection id={id} heading={heading}>
      <Facts rows={rows} testId={testId} />
    </KitSection>
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

/** A customer as staff read them everywhere: the name and the id, "ada@example.com (#12)". */
export const customerLabel = (of: { customer: string; userId: number }) => `${of.customer} (#${of.userId})`;

/** A customer by name and id: a link to their page for staff who may open it (`label` names it). */
export function CustomerLink({ of, label }: { of: { customer: string; userId: number }; label?: string }) {
  const { staff } = useBackOffice();
  if (!allowed(staff, adminCalls.customerOverview)) return customerLabel(of);
  return (
    <Link to={`/customers/${of.userId}`} aria-label={label}>
      {customerLabel(of)}
    </Link>
  );
}
