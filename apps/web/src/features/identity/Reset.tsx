import { EMAIL } from '@swx/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import {
  CodeField,
  checkPhone,
  codeError,
  Field,
  FormError,
  IdentifierChoice,
  type IdentifierMode,
  NewPasswordFields,
  newPasswordErrors,
  PhoneFields,
  phoneDigits,
  sendVerificationCode,
} from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';

type Errors = Partial<Record<'email' | 'phone' | 'code' | 'password' | 'password2', string>>;

/**
 * Password recovery: a code mailed to the account's address, or sent by SMS to the account's
 * phone, sets a new password.
 */
export default function Reset() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<IdentifierMode>('name');
  const [form, setForm] = useState({
    email: '',
    areaCode: '+44',
    phone: '',
    code: '',
    password: '',
    password2: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [notice, setNotice] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));
  const fail = (error: unknown) => setFailure(error instanceof ApiFailure ? error.message : t('state.error'));

  const identifierErrors = (): Errors => {
    if (mode === 'phone') {
      const phone = checkPhone(t, form.areaCode, form.phone);
      return phone.error ? { phone: phone.error } : {};
    }
    return EMAIL.test(form.email.trim()) ? {} : { email: t('auth.error.emailFormat') };
  };

  const sendCode = async (): Promise<number | null> => {
    setFailure('');
    const e = identifierErrors();
    setErrors(e);
    if (e.phone || e.email) return null;
    try {
      const sent = await sendVerificationCode(
        t,
        mode === 'phone' ? { areaCode: form.areaCode, phone: form.phone } : { email: form.email.trim() },
        'reset',
      );
      setNotice(sent.notice);
      return sent.resendInSeconds;
    } catch (error) {
      fail(error);
      return null;
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const e: Errors = identifierErrors();
    const code = codeError(t, form.code);
    if (code) e.code = code;
    Object.assign(e, newPasswordErrors(t, form.password, form.password2));
    setErrors(e);
    setFailure('');
    if (Object.keys(e).length > 0) return;
    setBusy(true);
    try {
      await callApi('resetPassword', {
        body: {
          ...(mode === 'phone'
            ? { areaCode: form.areaCode, phone: phoneDigits(form.phone) }
            : { email: form.email.trim() }),
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
        <IdentifierChoice
          legend={t('phone.resetWith')}
          nameLabel={t('phone.optionEmail')}
          mode={mode}
          onChange={(next) => {
            setMode(next);
            setErrors({});
            setNotice('');
            setFailure('');
          }}
        />
        {mode === 'phone' ? (
          <PhoneFields
            areaCode={form.areaCode}
            phone={form.phone}
            error={errors.phone}
            onAreaCode={(areaCode) => setForm((f) => ({ ...f, areaCode }))}
            onPhone={(phone) => setForm((f) => ({ ...f, phone }))}
          />
        ) : (
          <Field
            label={t('auth.resetEmail')}
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            error={errors.email}
            onChange={set('email')}
          />
        )}
        <CodeField value={form.code} error={errors.code} onChange={set('code')} send={sendCode} />
        {notice ? (
          <p className="form-notice" role="status">
            {notice}
          </p>
        ) : null}
        <NewPasswordFields
          label={t('auth.newPassword')}
          password={form.password}
          password2={form.password2}
          errors={errors}
          onPassword={set('password')}
          onPassword2={set('password2')}
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
