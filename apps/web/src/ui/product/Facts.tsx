import type { ReactNode } from 'react';
import { CardTable } from '../CardTable.tsx';
import './product.css';

/** The tone of a state's chip (`.product-chip[data-tone]`): it repeats what the state's words say. */
export type Tone = 'success' | 'caution' | 'danger' | 'brand';

/**
 * One row of a product's facts: its name (`data-figure`, or `data-fact`), its label, what is shown
 * and, for readers and tests, the exact value (`data-value`, left out when there is none). `long`
 * marks a sentence rather than a figure (read from the start when it takes a line of its own).
 */
export type Fact = { name: string; label: ReactNode; shown: ReactNode; value?: string; long?: boolean };

/**
 * A fact of an exact amount of an asset: shown with every digit the server gave (`f.exact`, the
 * product's formatter), its value the decimal itself.
 */
export function exactFact(
  f: { exact: (amount: string, asset: string) => string },
  name: string,
  label: ReactNode,
  amount: string,
  asset: string,
): Fact {
  return { name, label, value: amount, shown: f.exact(amount, asset) };
}

/**
 * A product's facts as a description list (`dl.facts`), every row `<div><dt/><dd/></div>`: a
 * quote's figures, a product's terms, a plan or a loan. `mark` names the attribute that carries
 * each row's name; `quoteId` marks the quote the figures are of.
 */
export function Facts({
  facts,
  testId,
  className,
  quoteId,
  mark = 'figure',
}: {
  facts: Fact[];
  testId?: string | undefined;
  className?: string | undefined;
  quoteId?: string | undefined;
  mark?: 'figure' | 'fact';
}) {
  return (
    <dl className={className ? `facts ${className}` : 'facts'} data-testid={testId} data-quote={quoteId}>
      {facts.map((fact) => (
        <div
          key={fact.name}
          {...{ [`data-${mark}`]: fact.name }}
          data-value={fact.value}
          data-long={fact.long ? '' : undefined}
        >
          <dt>{fact.label}</dt>
          <dd>{fact.shown}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A table that scrolls sideways when it is wider than the screen, reachable by keyboard, named by
 * `label` (its caption too, for screen readers): the day-by-day tables of the products. With
 * `cards`, a table too wide for a phone: each row a card there instead (`ui/CardTable.tsx`).
 */
export function ScrollTable({
  label,
  testId,
  head,
  cards = false,
  children,
}: {
  label: string;
  /** On the table. */
  testId?: string | undefined;
  /** The heading cells, in order; `num` right-aligns a column of figures. */
  head: { text: ReactNode; num?: boolean }[];
  /** Each row a card, each cell labelled with its column, where the table's box is phone-narrow. */
  cards?: boolean;
  children: ReactNode;
}) {
  const columns = (
    <thead>
      <tr>
        {head.map((cell, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
          <th key={index} scope="col" className={cell.num ? 'num' : undefined}>
            {cell.text}
          </th>
        ))}
      </tr>
    </thead>
  );
  if (cards)
    return (
      <CardTable label={label} testId={testId}>
        {columns}
        <tbody>{children}</tbody>
      </CardTable>
    );
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls, and the keyboard reaches it
    <section className="table-scroll" aria-label={label} tabIndex={0}>
      <table className="data-table" data-testid={testId}>
        <caption className="visually-hidden">{label}</caption>
        {columns}
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
