import { useTranslation } from 'react-i18next';

/** Loading, error and empty states, the same everywhere. */
export function Loading() {
  const { t } = useTranslation();
  return (
    // Not a live region: a fetch is not news; the page's arrival is announced by the shell.
    <div className="page-state" data-loading="">
      <span className="spinner" aria-hidden="true" />
      {t('state.loading')}
    </div>
  );
}

export function Failed({ message, onRetry }: { message?: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="page-state error" role="alert">
      <p>{message ?? t('state.error')}</p>
      {onRetry ? (
        <button type="button" className="button ghost" onClick={onRetry}>
          {t('action.retry')}
        </button>
      ) : null}
    </div>
  );
}

export function Empty({ text }: { text?: string }) {
  const { t } = useTranslation();
  return <p className="page-state empty">{text ?? t('state.empty')}</p>;
}
