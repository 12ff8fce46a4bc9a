import { resetPasswordBody } from '@swx/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { callApi } from '../../app/api.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import {
  CodeAndNewPassword,
  IdentifierFields,
  identityMessage,
  phoneBody,
  repeatedPasswordError,
} from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';

/**
 * Password recovery: a code mailed to the account's address, or sent by SMS to the account's
 * phone, sets a new password.
 */
export default function Reset() {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const form = useContractForm({
    schema: resetPasswordBody,
    initial: { mode: 'name', email: '', areaCode: '+44', phone: '', code: '', password: '', password2: '' },
    toBody: (values) => ({
      ...(values.mode === 'phone' ? phoneBody(values) : { email: values.email }),
      code: values.code,
      password: values.password,
      password2: values.password2,
    }),
    message: (field, issue, values) => identityMessage(t, field, issue, values),
    check: (values) => repeatedPasswordError(t, values),
    submit: async (body) => {
      await callApi('resetPassword', { body });
      setDone(true);
    },
  });
  const { values } = form;

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
      <form className="pass-form" onSubmit={form.onSubmit} noValidate>
        <IdentifierFields form={form} legend={t('phone.resetWith')} nameLabel={t('phone.optionEmail')}>
          <Field label={t('auth.resetEmail')} type="email" autoComplete="email" {...form.field('email')} />
        </IdentifierFields>
        <CodeAndNewPassword
          form={form}
          purpose="reset"
          identifiers={['email', 'phone']}
          target={() => (values.mode === 'phone' ? values : { email: values.email.trim() })}
          passwordLabel={t('auth.newPassword')}
        />
        <FormError message={form.failure} />
        <SubmitButton busy={form.busy}>{t('auth.submitReset')}</SubmitButton>
      </form>
      <p className="pass-links">
        <Link to="/pass/login">{t('action.login')}</Link>
      </p>
    </PassLayout>
  );
}
