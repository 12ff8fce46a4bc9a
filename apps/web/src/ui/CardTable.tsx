import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import './card-table.css';

/**
 * Puts each column's heading on the cells below it as `data-label`, which `.card-table` shows
 * beside each figure once its rows are cards; a row's own heading (`th[scope=row]`) heads its card
 * and gets none. Run after every render, so rows that came later are labelled too.
 */
export function useCardLabels(table: RefObject<HTMLTableElement | null>): void {
  useLayoutEffect(() => {
    const element = table.current;
    const headRow = element?.tHead?.rows[element.tHead.rows.length - 1];
    if (!element || !headRow) return;
    const labels: string[] = [];
    for (const cell of headRow.cells)
      for (let span = 0; span < cell.colSpan; span++) labels.push(cell.textContent?.trim() ?? '');
    for (const body of element.tBodies)
      for (const row of body.rows) {
        let column = 0;
        for (const cell of row.cells) {
          const label = labels[column] ?? '';
          column += cell.colSpan;
          if (cell.matches('th[scope="row"]') || label === '') cell.removeAttribute('data-label');
          else if (cell.dataset.label !== label) cell.dataset.label = label;
        }
      }
  });
}

/**
 * A table too wide for a phone: as wide as its box allows, a table; in a box narrower than a phone
 * in landscape (`card-table.css`), each row is a card, each cell a line with its column's name
 * beside it, so no column hides off the side of the screen. Named by `label` (its caption too);
 * `children` are its `thead` and `tbody`. The box still scrolls should a single word not fit.
 */
export function CardTable({
  label,
  testId,
  className,
  children,
}: {
  label: string;
  /** On the table. */
  testId?: string | undefined;
  /** More classes of the table (it is a `data-table card-table`). */
  className?: string | undefined;
  children: ReactNode;
}) {
  const table = useRef<HTMLTableElement>(null);
  useCardLabels(table);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than its box scrolls, and the keyboard reaches it
    <section className="table-scroll card-table-box" aria-label={label} tabIndex={0}>
      <table
        ref={table}
        className={className ? `data-table card-table ${className}` : 'data-table card-table'}
        data-testid={testId}
      >
        <caption className="visually-hidden">{label}</caption>
        {children}
      </table>
    </section>
  );
}
