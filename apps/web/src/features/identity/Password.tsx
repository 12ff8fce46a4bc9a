import { Code, repasswordBody } from '@swx/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callApi } from '../../app/api.ts';
import { useClientState } from '../../app/state.ts';
import { AccountPage } from '../../ui/AccountPage.tsx';
import { Field, FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { FormNotice, identityMessage, NewPasswordFields, repeatedPasswordError } from './fields.tsx';

/** Change password: the current one and the new one twice; every other device is signed out. */
function PasswordForm() {
  const { t } = useTranslation();
  const userName = useClientState((s) => s.userInfo?.userName ?? '');
  const form = useContractForm({
    schema: repasswordBody,
    initial: { oldPassword: '', password: '', password2: '' },
    toBody: (values) => values,
    message: (field, issue, values) => identityMessage(t, field, issue, values),
    check: (values) => repeatedPasswordError(t, values),
    // A wrong current password (10004) is said under that field.
    codeFields: { [Code.WRONG_PASSWORD]: 'oldPassword' },
    submit: async (body) => {
      await callApi('repassword', { body });
      form.reset();
      form.setNotice(t('settings.password.done'));
    },
  });

  return (
    <form
      className="card pass-form narrow"
      onSubmit={(event) => {
        form.setNotice('');
        void form.onSubmit(event);
      }}
      noValidate
    >
      {/* For password managers: which account this password belongs to. */}
      <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
      <Field
        label={t('settings.password.current')}
        type="password"
        autoComplete="current-password"
        {...form.field('oldPassword')}
      />
      <NewPasswordFields form={form} label={t('auth.newPassword')} />
      <FormError message={form.failure} />
      <FormNotice message={form.notice} />
      <SubmitButton busy={form.busy}>
        {form.busy ? t('settings.password.saving') : t('settings.password.submit')}
      </SubmitButton>
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
