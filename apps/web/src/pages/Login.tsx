import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callApi } from '../app/api.ts';
import { Field, FormError, useSignIn } from './forms.tsx';
import { PassLayout } from './PassPage.tsx';

export default function Login() {
  const { t } = useTranslation();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ userName?: string; password?: string }>({});
  const { busy, failure, setFailure, signIn } = useSignIn();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!userName.trim()) next.userName = t('auth.error.enterUserName');
    if (!password) next.password = t('auth.error.enterPassword');
    setErrors(next);
    setFailure('');
    if (Object.keys(next).length > 0) return;
    await signIn(() => callApi('login', { body: { userName: userName.trim(), password } }));
  };

  return (
    <PassLayout>
      <form className="pass-form" onSubmit={submit} noValidate>
        <Field
          label={t('auth.userName')}
          name="userName"
          autoComplete="username"
          value={userName}
          error={errors.userName}
          onChange={(e) => setUserName(e.target.value)}
        />
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
      <p className="muted small">{t('auth.socialSoon')}</p>
      <p className="pass-links">
        <span>{t('auth.noAccount')}</span> <Link to="/pass/register">{t('action.signUp')}</Link>
        <span aria-hidden="true"> · </span>
        <Link to="/pass/reset">{t('auth.forgot')}</Link>
      </p>
    </PassLayout>
  );
}
