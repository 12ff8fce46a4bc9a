import { Code } from '@swx/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../account/AccountPage.tsx';
import { Field, FormError, NewPasswordFields, newPasswordErrors } from './fields.tsx';

type Errors = Partial<Record<'oldPassword' | 'password' | 'password2', string>>;

/** Change password: the current one and the new one twice; every other device is signed out. */
function PasswordForm() {
  const { t } = useTranslation();
  const userName = useClientState((s) => s.userInfo?.userName ?? '');
  const [form, setForm] = useState({ oldPassword: '', password: '', password2: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const e: Errors = newPasswordErrors(t, form.password, form.password2);
    if (!form.oldPassword) e.oldPassword = t('settings.password.enterCurrent');
    setErrors(e);
    setFailure('');
    setDone(false);
    if (Object.keys(e).length > 0) return;
    setBusy(true);
    try {
      await callApi('repassword', { body: form });
      setForm({ oldPassword: '', password: '', password2: '' });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiFailure && error.code === Code.WRONG_PASSWORD)
        setErrors({ oldPassword: error.message });
      else setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card pass-form narrow" onSubmit={submit} noValidate>
      {/* For password managers: which account this password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
      <Field
        label={t('settings.password.current')}
        name="oldPassword"
        type="password"
        autoComplete="current-password"
        value={form.oldPassword}
        error={errors.oldPassword}
        onChange={set('oldPassword')}
      />
      <NewPasswordFields
        label={t('auth.newPassword')}
        password={form.password}
        password2={form.password2}
        errors={errors}
        onPassword={set('password')}
        onPassword2={set('password2')}
      />
      <FormError message={failure} />
      {done ? (
        <p className="form-notice" role="status">
          {t('settings.password.done')}
        </p>
      ) : null}
      <button type="submit" className="button primary large block" disabled={busy}>
        {busy ? t('settings.password.saving') : t('settings.password.submit')}
      </button>
      <p className="small">
        <Link to="/profile/security">{t('settings.password.seeDevices')}</Link>
      </p>
    </form>
  );
}

export default function Password() {
  const { t } = useTranslation();
  return (
    <AccountPage title={t('title.changePassword')}>
      <PasswordForm />
    </AccountPage>
  );
}
