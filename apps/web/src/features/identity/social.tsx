import { Code } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure, callApi } from '../../app/api.ts';
import { identityQueries } from './queries.ts';
import './identity.css';

/** `google` → `Google`, as the call's path names it: loginByGoogle. */
export const pathName = (provider: string) => provider.charAt(0).toUpperCase() + provider.slice(1);

/** The localized text for a refused social sign-in; other refusals keep the server's message. */
export function socialFailure(t: TFunction, error: unknown, provider: string): string {
  if (!(error instanceof ApiFailure)) return t('state.error');
  switch (error.code) {
    case Code.NOT_FOUND:
      return t('social.error.expired');
    case Code.FORBIDDEN:
      return t('social.error.refused', { provider });
    case Code.EMAIL_EXISTS:
      return t('social.error.emailExists', { provider });
    case Code.SERVICE_UNAVAILABLE:
      return t('social.error.unavailable', { provider });
    default:
      return error.message;
  }
}

/**
 * "Continue with …" for each provider the server offers; nothing when it offers none. A click
 * starts the sign-in on the server and goes to the provider, which sends the browser back to
 * /api/loginCallback/{provider}.
 */
export function SocialButtons({ onError }: { onError: (message: string) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const providers = useQuery(identityQueries.socialProviders());
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    // Back from the provider through the browser's page cache: the buttons work again.
    const reset = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(null);
    };
    window.addEventListener('pageshow', reset);
    return () => window.removeEventListener('pageshow', reset);
  }, []);
  if (!providers.data || providers.data.length === 0) return null;

  const start = async (provider: string, label: string) => {
    setBusy(provider);
    onError('');
    try {
      const { authorizationUrl } = await callApi('loginByProvider', {
        params: { provider: pathName(provider) },
      });
      if (!/^https?:\/\//.test(authorizationUrl)) throw new Error('not a web address');
      window.location.assign(authorizationUrl);
    } catch (error) {
      setBusy(null);
      onError(socialFailure(t, error, label));
    }
  };

  return (
    <section className="social-sign-in" aria-labelledby={headingId}>
      <h2 id={headingId} className="social-heading">
        <span>{t('social.heading')}</span>
      </h2>
      <ul className="social-list">
        {providers.data.map(({ provider, label }) => (
          <li key={provider}>
            <button
              type="button"
              className="button ghost large block"
              disabled={busy !== null}
              aria-busy={busy === provider ? true : undefined}
              onClick={() => void start(provider, label)}
            >
              {busy === provider
                ? t('social.opening', { provider: label })
                : t('social.continueWith', { provider: label })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
