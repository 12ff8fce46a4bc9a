import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setState, useClientState } from '../app/state.ts';
import { ledgerQueries } from '../features/ledger/queries.ts';

/**
 * The demo/live switch (spec §4): the choice is kept in local storage, sent as the `virtually`
 * header on every call, and each switch says plainly which money the user now sees.
 */
export function BookSwitch() {
  const { t } = useTranslation();
  const virtual = useClientState((s) => s.virtual);
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const id = useId();
  const choose = (value: 0 | 1) => {
    if (value === virtual) return;
    setState({ virtual: value });
    setMessage(value === 1 ? t('account.switchedToDemo') : t('account.switchedToLive'));
    void queryClient.invalidateQueries({ queryKey: ledgerQueries.all });
  };
  return (
    <div className="book-switch">
      <fieldset className="segmented" aria-labelledby={id}>
        <legend id={id} className="visually-hidden">
          {t('account.mode')}
        </legend>
        {([1, 0] as const).map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={virtual === value}
            className={virtual === value ? 'selected' : undefined}
            data-book={value === 1 ? 'demo' : 'live'}
            onClick={() => choose(value)}
          >
            {value === 1 ? t('account.demo') : t('account.live')}
          </button>
        ))}
      </fieldset>
      <p className="muted small">{virtual === 1 ? t('account.demoHint') : t('account.liveHint')}</p>
      <p className="book-message" role="status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
