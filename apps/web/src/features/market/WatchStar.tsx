import type { MarketItem } from '@swx/contract';
import { useTranslation } from 'react-i18next';

/** The watchlist toggle: a star that says what it will do, pressed when the item is watched. */
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
      aria-label={
        watched ? t('market.unwatch', { name: item.appName }) : t('market.watch', { name: item.appName })
      }
      onClick={() => onToggle(item)}
    >
      <span aria-hidden="true">{watched ? '★' : '☆'}</span>
    </button>
  );
}
