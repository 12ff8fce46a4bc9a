import { LANGUAGE_TAGS, type MarketItem } from '@swx/contract';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useClientState } from '../../app/state.ts';
import { Change } from './Change.tsx';
import { direction, price, useQuoteMap, withLive } from './live.ts';
import { Sparkline } from './Sparkline.tsx';
import { WatchStar } from './WatchStar.tsx';
import './market.css';

export function currencyHref(item: Pick<MarketItem, 'code' | 'type' | 'id'>): string {
  return `/cruuency?${new URLSearchParams({ code: item.code, type: String(item.type), id: String(item.id) }).toString()}`;
}

type RowProps = {
  item: MarketItem & { nowPrice: string };
  locale: string;
  watched?: boolean | undefined;
  onToggleWatch?: ((item: MarketItem) => void) | undefined;
};

const Row = memo(function Row({ item, locale, watched, onToggleWatch }: RowProps) {
  const { t } = useTranslation();
  return (
    <tr data-code={item.code}>
      <th scope="row">
        <Link to={currencyHref(item)} className="instrument">
          <img src={item.logo} alt="" width="28" height="28" loading="lazy" />
          <span>
            <span className="instrument-name">{item.appName}</span>
            <span className="instrument-code">{item.code}</span>
          </span>
        </Link>
      </th>
      <td className="num price" data-price={item.nowPrice}>
        {price(item.nowPrice, locale)}
        {item.open ? null : <span className="badge">{t('market.closed')}</span>}
      </td>
      <td className="num">
        <Change zdf={item.zdf} />
      </td>
      <td className="spark-cell">
        <Sparkline points={item.hundred} trend={direction(item.zdf)} />
      </td>
      {onToggleWatch ? (
        <td>
          <WatchStar item={item} watched={watched === true} onToggle={onToggleWatch} />
        </td>
      ) : null}
    </tr>
  );
});

/** The live market list: price and 24 h change follow the /message feed; the mini chart is the last 24 h. */
export function MarketTable({
  items,
  caption,
  watchedIds,
  onToggleWatch,
}: {
  items: readonly MarketItem[];
  caption: string;
  watchedIds?: ReadonlySet<number> | undefined;
  onToggleWatch?: ((item: MarketItem) => void) | undefined;
}) {
  const { t } = useTranslation();
  const language = useClientState((s) => s.language);
  const quotes = useQuoteMap();
  const locale = LANGUAGE_TAGS[language];
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard
    <section className="table-scroll" aria-label={caption} tabIndex={0}>
      <table className="data-table market-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
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
        <tbody>
          {items.map((item) => (
            <Row
              key={item.id}
              item={withLive(item, quotes)}
              locale={locale}
              watched={watchedIds?.has(item.id)}
              onToggleWatch={onToggleWatch}
            />
          ))}
        </tbody>
      </table>
    </section>
  );
}
