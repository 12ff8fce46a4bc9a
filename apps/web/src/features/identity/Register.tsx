import { EMAIL, USERNAME } from '@swx/contract';
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
  useSignIn,
} from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';

type Errors = Partial<Record<'userName' | 'email' | 'phone' | 'password' | 'password2' | 'code', string>>;

export default function Register() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<IdentifierMode>('name');
  const [form, setForm] = useState({
    userName: '',
    email: '',
    areaCode: '+44',
    phone: '',
    password: '',
    password2: '',
    code: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState('');
  const { busy, failure, setFailure, signIn } = useSignIn();
  const userNameIsEmail = EMAIL.test(form.userName.trim());
  const codeTarget = (userNameIsEmail ? form.userName : form.email).trim();

  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const check = (withCode: boolean): Errors => {
    const e: Errors = {};
    if (mode === 'phone') {
      const phone = checkPhone(t, form.areaCode, form.phone);
      if (phone.error) e.phone = phone.error;
    } else {
      const name = form.userName.trim();
      if (!name) e.userName = t('auth.error.enterUserName');
      else if (!userNameIsEmail && !USERNAME.test(name)) e.userName = t('auth.error.userNameFormat');
      if (!userNameIsEmail && !EMAIL.test(form.email.trim())) e.email = t('auth.error.emailFormat');
    }
    if (withCode) {
      Object.assign(e, newPasswordErrors(t, form.password, form.password2));
      const code = codeError(t, form.code);
      if (code) e.code = code;
    }
    return e;
  };

  const sendCode = async (): Promise<number | null> => {
    const e = check(false);
    setErrors(e);
    setFailure('');
    if (e.userName || e.email || e.phone) return null;
    try {
      const sent = await sendVerificationCode(
        t,
        mode === 'phone' ? { areaCode: form.areaCode, phone: form.phone } : { email: codeTarget },
        'register',
      );
      setNotice(sent.notice);
      return sent.resendInSeconds;
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
      return null;
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
          ...(mode === 'phone'
            ? { areaCode: form.areaCode, phone: phoneDigits(form.phone) }
            : {
                userName: form.userName.trim(),
                ...(userNameIsEmail ? {} : { email: form.email.trim() }),
              }),
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
        <IdentifierChoice
          legend={t('phone.registerWith')}
          nameLabel={t('phone.optionName')}
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
            label={t('auth.userName')}
            hint={t('auth.userNameHint')}
            name="userName"
            autoComplete="username"
            value={form.userName}
            error={errors.userName}
            onChange={set('userName')}
          />
        )}
        {mode === 'phone' || userNameIsEmail ? null : (
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
        <CodeField value={form.code} error={errors.code} onChange={set('code')} send={sendCode} />
        {notice ? (
          <p className="form-notice" role="status">
            {notice}
          </p>
        ) : null}
        <NewPasswordFields
          label={t('auth.password')}
          password={form.password}
          password2={form.password2}
          errors={errors}
          onPassword={set('password')}
          onPassword2={set('password2')}
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
