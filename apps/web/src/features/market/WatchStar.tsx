import type { MarketItem } from '@swx/contract';
import { useTranslation } from 'react-i18next';

/** The watchlist toggle: one label, pressed when the item is watched (the star itself is decoration). */
export function WatchStar({
  item,
  watched,
  onToggle,
}: {
  item: MarketItem;
  watched: boolean;
  onToggle: (item: MarketItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`icon-button star ${watched ? 'on' : ''}`}
      aria-pressed={watched}
      aria-label={t('market.inWatchlist', { name: item.appName })}
      onClick={() => onToggle(item)}
    >
      <span aria-hidden="true">{watched ? '★' : '☆'}</span>
    </button>
  );
}
