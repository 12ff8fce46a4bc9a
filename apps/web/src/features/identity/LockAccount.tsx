import { ApiFailure, Code } from '@swx/contract';
import { use, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { callApi } from '../../app/api.ts';
import { FormError } from '../../ui/Field.tsx';
import { PassLayout } from './PassLayout.tsx';
import { identityTexts } from './texts.ts';

/** The lock link's token: 64 hex digits after the `#` (a fragment is never sent to a server or its logs). */
const tokenOf = (hash: string) => /^#([a-f0-9]{64})$/.exec(hash)?.[1] ?? null;

/**
 * /pass/lock#<token>: the lock link of a security mail. One button locks the account (every
 * session ends, sign-in is refused until customer service unlocks it); a mail scanner opening the
 * link locks nothing. A used, expired or mistyped link says so.
 */
export default function LockAccount() {
  use(identityTexts);
  const { t } = useTranslation();
  const { hash } = useLocation();
  const [token, setToken] = useState<string | null>(null);
  const [state, setState] = useState<'ready' | 'busy' | 'locked' | 'gone'>('ready');
  const [failure, setFailure] = useState('');
  // The fragment is the browser's alone: a page drawn ahead (prerender) has none, so only the
  // running app reads it, and says so when the link is incomplete.
  useEffect(() => {
    const found = tokenOf(hash) ?? tokenOf(window.location.hash);
    setToken(found);
    if (!found) setState('gone');
  }, [hash]);

  if (state === 'locked')
    return (
      <PassLayout>
        <p role="status">{t('security.lock.done')}</p>
      </PassLayout>
    );
  if (state === 'gone')
    return (
      <PassLayout>
        <p role="alert">{t('security.lock.gone')}</p>
        <p className="pass-links">
          <Link to="/pass/login">{t('action.login')}</Link>
        </p>
      </PassLayout>
    );
  return (
    <PassLayout>
      <p>{t('security.lock.explain')}</p>
      <FormError message={failure} />
      <button
        type="button"
        className="button primary large block"
        data-testid="lock-account"
        disabled={state === 'busy' || !token}
        onClick={async () => {
          if (!token) return;
          setState('busy');
          setFailure('');
          try {
            await callApi('lockAccount', { body: { token } });
            setState('locked');
          } catch (error) {
            if (error instanceof ApiFailure && error.code === Code.NOT_FOUND) setState('gone');
            else {
              setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
              setState('ready');
            }
          }
        }}
      >
        {t('security.lock.button')}
      </button>
    </PassLayout>
  );
}
