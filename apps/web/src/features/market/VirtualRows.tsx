import { defaultRangeExtractor, useWindowVirtualizer } from '@tanstack/react-virtual';
import { type FocusEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import type { RowsRenderer } from './MarketTable.tsx';

/** A row's height before it is measured (a phone's row with a two-line name). */
const ROW_ESTIMATE_PX = 57;

/**
 * The rows of a long list that are in view (and a few around them), the rest stood in for by
 * two spacer rows hidden from assistive technology; the table's `aria-rowcount` and each row's
 * `aria-rowindex` keep the count and places right. The page scrolls as usual (the window's
 * scroll). A row holding focus stays rendered however far it is scrolled, so focus is never lost.
 */
export const virtualRows: RowsRenderer = (props) => <VirtualRows {...props} />;

function VirtualRows({ items, columns, row }: Parameters<RowsRenderer>[0]) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [top, setTop] = useState(0);
  const [focused, setFocused] = useState(-1);
  useLayoutEffect(() => {
    const measure = () => setTop((body.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ROW_ESTIMATE_PX,
    // A row's height from the resize observer, which reports it after the frame's own layout; a
    // row just rendered keeps its known or estimated height until then (reading offsetHeight there
    // would force the whole page's style and layout inside React's commit).
    measureElement: (element, entry, instance) => {
      const box = entry?.borderBoxSize[0];
      if (box) return Math.round(box.blockSize);
      const known = instance.itemSizeCache.get(
        instance.options.getItemKey(instance.indexFromElement(element)),
      );
      return known ?? ROW_ESTIMATE_PX;
    },
    overscan: 6,
    scrollMargin: top,
    getItemKey: (index) => items[index]?.id ?? index,
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      if (focused < 0 || focused >= items.length || indexes.includes(focused)) return indexes;
      return [...indexes, focused].sort((a, b) => a - b);
    },
  });
  const onFocus = (event: FocusEvent<HTMLTableSectionElement>) => {
    const index = Number((event.target.closest('tr[data-index]') as HTMLElement | null)?.dataset.index);
    setFocused(Number.isInteger(index) ? index : -1);
  };
  const cells: ReactNode[] = [];
  let end = top;
  const spacer = (key: string, height: number) =>
    height > 0 ? (
      // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row holds nothing focusable; it only keeps the scroll height
      <tr key={key} aria-hidden="true" className="virtual-spacer">
        <td colSpan={columns} style={{ blockSize: height }} />
      </tr>
    ) : null;
  for (const item of virtualizer.getVirtualItems()) {
    const listed = items[item.index];
    if (!listed) continue;
    cells.push(spacer(`gap-${item.index}`, item.start - end));
    cells.push(row(listed, item.index, virtualizer.measureElement));
    end = item.end;
  }
  cells.push(spacer('end', top + virtualizer.getTotalSize() - end));
  return (
    <tbody ref={body} onFocus={onFocus}>
      {cells}
    </tbody>
  );
}
