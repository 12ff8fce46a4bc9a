import { useTranslation } from 'react-i18next';
import { useClientState } from '../app/state.ts';
import type { Book } from '../features/ledger/queries.ts';
import './book-badge.css';

/** The book the app is pointed at now (the `virtually` header of every call follows the same state). */
export function useCurrentBook(): Book {
  return useClientState((s) => (s.virtual === 1 ? 'demo' : 'live'));
}

/**
 * Which money a screen shows: "Demo account · Virtual money" or "Live account · Real money", in
 * words, with a shape of its own (a dashed outline and a hollow practice mark for demo, a solid
 * badge and a filled dot for live), so it never rests on colour. Without `book` it follows the
 * current choice of the book switch; an order passes the book it was opened in.
 */
export function BookBadge({ book, className }: { book?: Book; className?: string }) {
  const { t } = useTranslation();
  const current = useCurrentBook();
  const shown = book ?? current;
  const name = shown === 'demo' ? t('account.demo') : t('account.live');
  const money = shown === 'demo' ? t('book.demoMoney') : t('book.liveMoney');
  return (
    <span
      className={`book-badge ${shown}${className ? ` ${className}` : ''}`}
      data-book={shown}
      data-testid="book-badge"
      role="img"
      aria-label={t('book.label', { name, money })}
    >
      <svg
        className="book-badge-icon"
        width="18"
        height="18"
        viewBox="0 0 24 24"
        aria-hidden="true"
        focusable="false"
      >
        {shown === 'demo' ? (
          <>
            <circle
              cx="12"
              cy="12"
              r="9"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeDasharray="3 3"
            />
            <path d="M10 8.5v7l5.5-3.5z" fill="currentColor" />
          </>
        ) : (
          <>
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
            <circle cx="12" cy="12" r="5" fill="currentColor" />
          </>
        )}
      </svg>
      <span className="book-badge-name">{name}</span>
      <span className="book-badge-money">{money}</span>
    </span>
  );
}
