import { EMAIL, USERNAME } from '@swx/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../app/api.ts';
import { Field, FormError, useSignIn } from './forms.tsx';
import { PassLayout } from './PassPage.tsx';

type Errors = Partial<Record<'userName' | 'email' | 'password' | 'password2' | 'code', string>>;

export default function Register() {
  const { t } = useTranslation();
  const [form, setForm] = useState({ userName: '', email: '', password: '', password2: '', code: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState('');
  const { busy, failure, setFailure, signIn } = useSignIn();
  const [resendIn, setResendIn] = useState(0);
  const userNameIsEmail = EMAIL.test(form.userName.trim());
  const codeTarget = (userNameIsEmail ? form.userName : form.email).trim();

  useEffect(() => {
    if (resendIn <= 0) return;
    const timer = setTimeout(() => setResendIn((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendIn]);

  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const check = (withCode: boolean): Errors => {
    const e: Errors = {};
    const name = form.userName.trim();
    if (!name) e.userName = t('auth.error.enterUserName');
    else if (!userNameIsEmail && !USERNAME.test(name)) e.userName = t('auth.error.userNameFormat');
    if (!userNameIsEmail && !EMAIL.test(form.email.trim())) e.email = t('auth.error.emailFormat');
    if (withCode) {
      if (!form.password) e.password = t('auth.error.enterPassword');
      else if (form.password.length < 8) e.password = t('auth.error.passwordShort');
      if (!form.password2) e.password2 = t('auth.error.enterPassword2');
      else if (form.password2 !== form.password) e.password2 = t('auth.error.mismatch');
      if (!form.code.trim()) e.code = t('auth.error.enterCode');
      else if (!/^\d{6}$/.test(form.code.trim())) e.code = t('auth.error.codeFormat');
    }
    return e;
  };

  const sendCode = async () => {
    const e = check(false);
    setErrors(e);
    setFailure('');
    if (e.userName || e.email) return;
    try {
      const sent = await callApi('sendCode', { body: { email: codeTarget, purpose: 'register' } });
      setResendIn(sent.resendInSeconds);
      setNotice(t('auth.codeSent', { email: codeTarget }));
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const e = check(true);
    setErrors(e);
    setFailure('');
    if (Object.keys(e).length > 0) return;
    await signIn(() =>
      callApi('register', {
        body: {
          userName: form.userName.trim(),
          ...(userNameIsEmail ? {} : { email: form.email.trim() }),
          password: form.password,
          password2: form.password2,
          code: form.code.trim(),
        },
      }),
    );
  };

  return (
    <PassLayout>
      <form className="pass-form" onSubmit={submit} noValidate>
        <Field
          label={t('auth.userName')}
          hint={t('auth.userNameHint')}
          name="userName"
          autoComplete="username"
          value={form.userName}
          error={errors.userName}
          onChange={set('userName')}
        />
        {userNameIsEmail ? null : (
          <Field
            label={t('auth.email')}
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            error={errors.email}
            onChange={set('email')}
          />
        )}
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
          label={t('auth.password')}
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
          {busy ? t('auth.registering') : t('auth.submitRegister')}
        </button>
      </form>
      <p className="pass-links">
        <span>{t('auth.haveAccount')}</span> <Link to="/pass/login">{t('action.login')}</Link>
      </p>
    </PassLayout>
  );
}
