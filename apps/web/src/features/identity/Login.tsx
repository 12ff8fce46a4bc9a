import { Code } from '@swx/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { safeReturnPath } from '../../app/returnTo.ts';
import { getState } from '../../app/state.ts';
import {
  checkPhone,
  Field,
  FormError,
  IdentifierChoice,
  type IdentifierMode,
  PhoneFields,
  phoneDigits,
  useSignIn,
} from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';
import { SocialButtons } from './social.tsx';

/**
 * The second login step, when the account has two-step verification: a code from the
 * authenticator app, or (after the toggle) one of the recovery codes. Social sign-in uses it too.
 */
export function SecondStep({
  challenge,
  onRestart,
}: {
  challenge: string;
  onRestart: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [recoveryCode, setRecoveryCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { busy, failure, setFailure, signIn } = useSignIn();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure('');
    const value = useRecovery ? recoveryCode.trim() : code.trim();
    if (useRecovery ? value.length < 8 : !/^\d{6}$/.test(value)) {
      setError(useRecovery ? t('security.login.enterRecovery') : t('security.login.enterCode'));
      return;
    }
    setError(undefined);
    await signIn(
      () =>
        callApi('loginTotp', {
          body: useRecovery ? { challenge, recoveryCode: value } : { challenge, code: value },
        }),
      (failed) => {
        // The challenge expired, was used or ran out of attempts: back to the password.
        if (failed instanceof ApiFailure && failed.code === Code.NOT_FOUND) {
          onRestart(t('security.login.expired'));
          return true;
        }
        return false;
      },
    );
  };

  return (
    <form className="pass-form" onSubmit={submit} noValidate data-step="two-factor">
      <h2 ref={heading} tabIndex={-1} className="step-title">
        {t('security.login.title')}
      </h2>
      <p className="muted">{useRecovery ? t('security.login.recoveryHint') : t('security.login.hint')}</p>
      {useRecovery ? (
        <Field
          key="recovery"
          label={t('security.login.recoveryCode')}
          name="recoveryCode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          value={recoveryCode}
          error={error}
          onChange={(e) => setRecoveryCode(e.target.value)}
        />
      ) : (
        <Field
          key="code"
          label={t('security.login.code')}
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          error={error}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
      <p>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setUseRecovery((value) => !value);
            setError(undefined);
            setFailure('');
          }}
        >
          {useRecovery ? t('security.login.useApp') : t('security.login.useRecovery')}
        </button>
      </p>
      <FormError message={failure} />
      <button type="submit" className="button primary large block" disabled={busy}>
        {busy ? t('security.login.verifying') : t('security.login.submit')}
      </button>
      <button type="button" className="button ghost block" onClick={() => onRestart('')}>
        {t('security.login.startOver')}
      </button>
    </form>
  );
}

export default function Login() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<IdentifierMode>('name');
  const [userName, setUserName] = useState('');
  const [areaCode, setAreaCode] = useState('+44');
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ userName?: string; phone?: string; password?: string }>({});
  const [challenge, setChallenge] = useState<string | null>(null);
  const { busy, failure, setFailure, signIn } = useSignIn();
  const [search] = useSearchParams();
  // Logged in already when the page opened: nothing to do here, go on (spec §4). A login made on
  // this page goes on through useSignIn instead.
  const [loggedInAtOpen] = useState(() => getState().isLogin);
  const expired = search.get('expired') === '1';

  if (loggedInAtOpen) return <Navigate to={safeReturnPath(search.get('return')) ?? '/'} replace />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (mode === 'phone') {
      const checked = checkPhone(t, areaCode, phone);
      if (checked.error) next.phone = checked.error;
    } else if (!userName.trim()) next.userName = t('auth.error.enterUserName');
    if (!password) next.password = t('auth.error.enterPassword');
    setErrors(next);
    setFailure('');
    if (Object.keys(next).length > 0) return;
    await signIn(async () => {
      const answer = await callApi('login', {
        body:
          mode === 'phone'
            ? { areaCode, phone: phoneDigits(phone), password }
            : { userName: userName.trim(), password },
      });
      if ('challenge' in answer) {
        setChallenge(answer.challenge);
        return null;
      }
      return answer;
    });
  };

  if (challenge) {
    return (
      <PassLayout>
        <SecondStep
          challenge={challenge}
          onRestart={(message) => {
            setChallenge(null);
            setPassword('');
            setFailure(message);
          }}
        />
      </PassLayout>
    );
  }

  return (
    <PassLayout>
      {expired ? (
        <p className="notice-banner" role="status" data-testid="session-expired">
          {t('state.sessionExpired')}
        </p>
      ) : null}
      <form className="pass-form" onSubmit={submit} noValidate>
        <IdentifierChoice
          legend={t('phone.loginWith')}
          nameLabel={t('phone.optionName')}
          mode={mode}
          onChange={(next) => {
            setMode(next);
            setErrors({});
            setFailure('');
          }}
        />
        {mode === 'phone' ? (
          <PhoneFields
            areaCode={areaCode}
            phone={phone}
            error={errors.phone}
            onAreaCode={setAreaCode}
            onPhone={setPhone}
          />
        ) : (
          <Field
            label={t('auth.userName')}
            name="userName"
            autoComplete="username"
            value={userName}
            error={errors.userName}
            onChange={(e) => setUserName(e.target.value)}
          />
        )}
        <Field
          label={t('auth.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <FormError message={failure} />
        <button type="submit" className="button primary large block" disabled={busy}>
          {busy ? t('auth.loggingIn') : t('auth.submitLogin')}
        </button>
      </form>
      <SocialButtons onError={setFailure} />
      <p className="pass-links">
        <span>{t('auth.noAccount')}</span> <Link to="/pass/register">{t('action.signUp')}</Link>
        <span aria-hidden="true"> · </span>
        <Link to="/pass/reset">{t('auth.forgot')}</Link>
      </p>
    </PassLayout>
  );
}
