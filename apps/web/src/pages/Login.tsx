import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiFailure, callApi } from '../app/api.ts';
import { logIn } from '../app/state.ts';
import { Field, FormError } from './forms.tsx';
import { PassLayout } from './PassPage.tsx';

export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ userName?: string; password?: string }>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!userName.trim()) next.userName = t('auth.error.enterUserName');
    if (!password) next.password = t('auth.error.enterPassword');
    setErrors(next);
    setFailure('');
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      const result = await callApi('login', { body: { userName: userName.trim(), password } });
      logIn(result.token, result.userInfo);
      navigate('/profile', { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    } finally {
      setBusy(false);
    }
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
