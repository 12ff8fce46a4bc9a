import { EMAIL } from '@swx/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../app/api.ts';
import { Field, FormError } from './forms.tsx';
import { PassLayout } from './PassPage.tsx';

type Errors = Partial<Record<'email' | 'code' | 'password' | 'password2', string>>;

/** Password recovery: a code mailed to the account's address sets a new password. */
export default function Reset() {
  const { t } = useTranslation();
  const [form, setForm] = useState({ email: '', code: '', password: '', password2: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resendIn, setResendIn] = useState(0);
  useEffect(() => {
    if (resendIn <= 0) return;
    const timer = setTimeout(() => setResendIn((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendIn]);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));
  const fail = (error: unknown) => setFailure(error instanceof ApiFailure ? error.message : t('state.error'));

  const sendCode = async () => {
    setFailure('');
    if (!EMAIL.test(form.email.trim())) {
      setErrors({ email: t('auth.error.emailFormat') });
      return;
    }
    setErrors({});
    try {
      const sent = await callApi('sendCode', { body: { email: form.email.trim(), purpose: 'reset' } });
      setResendIn(sent.resendInSeconds);
      setNotice(t('auth.codeSent', { email: form.email.trim() }));
    } catch (error) {
      fail(error);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const e: Errors = {};
    if (!EMAIL.test(form.email.trim())) e.email = t('auth.error.emailFormat');
    if (!/^\d{6}$/.test(form.code.trim()))
      e.code = form.code.trim() ? t('auth.error.codeFormat') : t('auth.error.enterCode');
    if (form.password.length < 8)
      e.password = form.password ? t('auth.error.passwordShort') : t('auth.error.enterPassword');
    if (!form.password2) e.password2 = t('auth.error.enterPassword2');
    else if (form.password2 !== form.password) e.password2 = t('auth.error.mismatch');
    setErrors(e);
    setFailure('');
    if (Object.keys(e).length > 0) return;
    setBusy(true);
    try {
      await callApi('resetPassword', {
        body: {
          email: form.email.trim(),
          code: form.code.trim(),
          password: form.password,
          password2: form.password2,
        },
      });
      setDone(true);
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <PassLayout>
        <p role="status">{t('auth.resetDone')}</p>
        <Link className="button primary" to="/pass/login">
          {t('action.login')}
        </Link>
      </PassLayout>
    );
  }
  return (
    <PassLayout>
      <form className="pass-form" onSubmit={submit} noValidate>
        <Field
          label={t('auth.resetEmail')}
          name="email"
          type="email"
          autoComplete="email"
          value={form.email}
          error={errors.email}
          onChange={set('email')}
        />
        <Field
          label={t('auth.code')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={form.code}
          error={errors.code}
          onChange={set('code')}
        >
          <button
            type="button"
            className="button ghost"
            onClick={() => void sendCode()}
            disabled={resendIn > 0}
          >
            {resendIn > 0 ? t('auth.resendIn', { seconds: resendIn }) : t('auth.sendCode')}
          </button>
        </Field>
        {notice ? (
          <p className="form-notice" role="status">
            {notice}
          </p>
        ) : null}
        <Field
          label={t('auth.newPassword')}
          hint={t('auth.passwordHint')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          error={errors.password}
          onChange={set('password')}
        />
        <Field
          label={t('auth.password2')}
          name="password2"
          type="password"
          autoComplete="new-password"
          value={form.password2}
          error={errors.password2}
          onChange={set('password2')}
        />
        <FormError message={failure} />
        <button type="submit" className="button primary large block" disabled={busy}>
          {t('auth.submitReset')}
        </button>
      </form>
      <p className="pass-links">
        <Link to="/pass/login">{t('action.login')}</Link>
      </p>
    </PassLayout>
  );
}
