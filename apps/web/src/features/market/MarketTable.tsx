import { LANGUAGE_TAGS, type MarketItem } from '@swx/contract';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { Change } from './Change.tsx';
import { direction, price, useLive } from './live.ts';
import { Sparkline } from './Sparkline.tsx';
import { WatchStar } from './WatchStar.tsx';
import './market.css';

/** The instrument page of an item (positions/routes.ts: /instrument, or spec §2's /cruuency). */
export function instrumentHref(item: Pick<MarketItem, 'code' | 'type' | 'id'>): string {
  return `/instrument?${new URLSearchParams({ code: item.code, type: String(item.type), id: String(item.id) }).toString()}`;
}

type RowProps = {
  item: MarketItem;
  /** Its place in the list (0 first): the row is `aria-rowindex` index + 2, after the header row. */
  index: number;
  locale: string;
  watched?: boolean | undefined;
  onToggleWatch?: ((item: MarketItem) => void) | undefined;
  /** Given by a virtual list, to measure the row's height. */
  measure?: ((row: HTMLTableRowElement | null) => void) | undefined;
};

/** The live figures of one row: the only part of the list that renders again on a tick. */
function LiveCells({ item, locale }: { item: MarketItem; locale: string }) {
  const { t } = useTranslation();
  const live = useLive(item);
  return (
    <>
      <td className="num price" data-price={live.nowPrice}>
        {price(live.nowPrice, locale)}
        {item.open ? null : <span className="badge">{t('market.closed')}</span>}
      </td>
      <td className="num">
        <Change change={live.change} />
      </td>
      <td className="spark-cell">
        <Sparkline points={item.hundred} trend={direction(live.change)} />
      </td>
    </>
  );
}

const Row = memo(function Row({ item, index, locale, watched, onToggleWatch, measure }: RowProps) {
  return (
    <tr data-code={item.code} data-index={index} aria-rowindex={index + 2} ref={measure}>
      <th scope="row">
        <Link to={instrumentHref(item)} className="instrument">
          <img src={item.logo} alt="" width="28" height="28" loading="lazy" />
          <span>
            <span className="instrument-name">{item.appName}</span>
            <span className="instrument-code">{item.code}</span>
          </span>
        </Link>
      </th>
      <LiveCells item={item} locale={locale} />
      {onToggleWatch ? (
        <td>
          <WatchStar item={item} watched={watched === true} onToggle={onToggleWatch} />
        </td>
      ) : null}
    </tr>
  );
});

/** Renders the rows of a list: every row (the default), or a virtual list's rows in view. */
export type RowsRenderer = (props: {
  items: readonly MarketItem[];
  columns: number;
  row: (item: MarketItem, index: number, measure?: RowProps['measure']) => ReactNode;
}) => ReactNode;

const allRows: RowsRenderer = ({ items, row }) => (
  <tbody>{items.map((item, index) => row(item, index))}</tbody>
);

/**
 * The live market list: price and 24 h change follow the /message feed (each row's figures ask for
 * their instrument while shown); the mini chart is the last 24 h. The table states its full row
 * count, so a virtual list (`rows`) reads right to a screen reader.
 */
export function MarketTable({
  items,
  caption,
  watchedIds,
  onToggleWatch,
  rows = allRows,
}: {
  items: readonly MarketItem[];
  caption: string;
  watchedIds?: ReadonlySet<number> | undefined;
  onToggleWatch?: ((item: MarketItem) => void) | undefined;
  rows?: RowsRenderer | undefined;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const locale = LANGUAGE_TAGS[language];
  const row = (item: MarketItem, index: number, measure?: RowProps['measure']) => (
    <Row
      key={item.id}
      item={item}
      index={index}
      locale={locale}
      watched={watchedIds?.has(item.id)}
      onToggleWatch={onToggleWatch}
      measure={measure}
    />
  );
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
    <section className="table-scroll" aria-label={caption} tabIndex={0}>
      <table className="data-table market-table" aria-rowcount={items.length + 1}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">{t('market.name')}</th>
            <th scope="col" className="num">
              {t('market.price')}
            </th>
            <th scope="col" className="num">
              {t('market.change')}
            </th>
            <th scope="col">{t('market.chart')}</th>
            {onToggleWatch ? (
              <th scope="col">
                <span className="visually-hidden">{t('market.watchlist')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        {rows({ items, columns: onToggleWatch ? 5 : 4, row })}
      </table>
    </section>
  );
}
