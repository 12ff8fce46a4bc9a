import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { FormError } from '../../ui/Field.tsx';
import { useSignedIn } from './fields.tsx';
import { SecondStep } from './Login.tsx';
import { PassLayout } from './PassLayout.tsx';
import { identityQueries } from './queries.ts';
import { pathName, socialFailure } from './social.tsx';
import './identity.css';

/** What the provider put in the return address: a code and state, or an error. */
type Returned = { code: string; state: string; iss: string | undefined; error: boolean };

/**
 * On desktop the page has no chrome (spec §2), so it brings the login page's header and title; on
 * mobile the top bar stays and already carries the title.
 */
function Frame({ children }: { children: ReactNode }) {
  const isDesktop = useClientState((s) => s.isDesktop);
  if (isDesktop) return <PassLayout>{children}</PassLayout>;
  return (
    <div className="pass-page">
      <div className="pass-card card">{children}</div>
    </div>
  );
}

/** States already sent from this page: React's development double effects must not send one twice. */
const sent = new Set<string>();

type Problem = { kind: 'cancelled' | 'missing' } | { error: unknown };

/**
 * Takes the code and state out of the address once (so a reload or the history cannot replay
 * them) and sends them to the server: signed in, a second step's challenge, or the problem.
 */
function useProviderReturn(provider: string) {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const [returned] = useState<Returned>(() => {
    const query = new URLSearchParams(search);
    return {
      code: query.get('code') ?? '',
      state: query.get('state') ?? '',
      iss: query.get('iss') ?? undefined,
      error: query.has('error'),
    };
  });
  const [challenge, setChallenge] = useState<string | null>(null);
  // Why it failed, kept as the cause so its text follows the language and the provider's label.
  const [problem, setProblem] = useState<Problem | null>(null);
  const signedIn = useSignedIn();

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, for the address the page opened with
  useEffect(() => {
    if (search) navigate(pathname, { replace: true });
    if (returned.error) {
      setProblem({ kind: 'cancelled' });
      return;
    }
    if (!returned.code || !returned.state) {
      setProblem({ kind: 'missing' });
      return;
    }
    if (sent.has(returned.state)) return;
    sent.add(returned.state);
    callApi('loginByProviderCallback', {
      params: { provider: pathName(provider) },
      body: { code: returned.code, state: returned.state, ...(returned.iss ? { iss: returned.iss } : {}) },
    }).then(
      (answer) => ('challenge' in answer ? setChallenge(answer.challenge) : signedIn(answer)),
      (error: unknown) => setProblem({ error }),
    );
  }, []);
  return { challenge, problem };
}

/** The problem in words, the provider named by its label. */
function failureText(t: TFunction, problem: Problem | null, label: string): string {
  if (problem === null) return '';
  if ('error' in problem) return socialFailure(t, problem.error, label);
  return problem.kind === 'cancelled'
    ? t('social.error.cancelled', { provider: label })
    : t('social.error.missing');
}

/**
 * /api/loginCallback/{provider}: the provider sends the browser back here. The page takes the code
 * and state out of the address (so a reload or the history cannot replay them), sends them to the
 * server, and logs in as a password login does; with two-step verification on, it asks for the
 * code. A refusal shows why, with a way back to the login page.
 */
export default function LoginCallback() {
  const { t } = useTranslation();
  const { provider = '' } = useParams();
  const navigate = useNavigate();
  const providers = useQuery(identityQueries.socialProviders());
  const label = providers.data?.find((p) => p.provider === provider)?.label ?? pathName(provider);
  const { challenge, problem } = useProviderReturn(provider);

  if (challenge) {
    return (
      <Frame>
        <SecondStep challenge={challenge} onRestart={() => navigate('/pass/login', { replace: true })} />
      </Frame>
    );
  }

  const failure = failureText(t, problem, label);
  return (
    <Frame>
      {failure ? (
        <div className="social-callback">
          <FormError message={failure} />
          <Link to="/pass/login" className="button primary large block">
            {t('social.backToLogin')}
          </Link>
        </div>
      ) : (
        <div className="page-state" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <p>{t('social.signingIn', { provider: label })}</p>
        </div>
      )}
    </Frame>
  );
}
