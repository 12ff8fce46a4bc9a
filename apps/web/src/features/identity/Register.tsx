import { EMAIL, registerBody, USERNAME } from '@swx/contract';
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
  useSignedIn,
} from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';

/** A username that is an email address needs no second address for the code. */
const isEmail = (userName: string) => EMAIL.test(userName.trim());

/** The registration form: the body the server takes, the name's format and the repeated password checked here. */
function useRegisterForm() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  return useContractForm({
    schema: registerBody,
    initial: {
      mode: 'name',
      userName: '',
      email: '',
      areaCode: '+44',
      phone: '',
      password: '',
      password2: '',
      code: '',
    },
    toBody: (values) => ({
      ...(values.mode === 'phone'
        ? phoneBody(values)
        : { userName: values.userName, ...(isEmail(values.userName) ? {} : { email: values.email }) }),
      password: values.password,
      password2: values.password2,
      code: values.code,
    }),
    message: (field, issue, values) => identityMessage(t, field, issue, values),
    check: (values) => {
      const name = values.userName.trim();
      const nameError =
        values.mode === 'name' && name && !isEmail(name) && !USERNAME.test(name)
          ? { userName: t('auth.error.userNameFormat') }
          : {};
      return { ...nameError, ...repeatedPasswordError(t, values) };
    },
    submit: async (body) => signedIn(await callApi('register', { body })),
  });
}

/** Registration with a username or email (a mailed code) or a phone (an SMS code), then signed in. */
export default function Register() {
  const { t } = useTranslation();
  const form = useRegisterForm();
  const { values } = form;

  return (
    <PassLayout>
      <form className="pass-form" onSubmit={form.onSubmit} noValidate>
        <IdentifierFields form={form} legend={t('phone.registerWith')} nameLabel={t('phone.optionName')}>
          <Field
            label={t('auth.userName')}
            hint={t('auth.userNameHint')}
            autoComplete="username"
            {...form.field('userName')}
          />
          {isEmail(values.userName) ? null : (
            <Field label={t('auth.email')} type="email" autoComplete="email" {...form.field('email')} />
          )}
        </IdentifierFields>
        <CodeAndNewPassword
          form={form}
          purpose="register"
          identifiers={['userName', 'email', 'phone']}
          target={() =>
            values.mode === 'phone'
              ? values
              : { email: (isEmail(values.userName) ? values.userName : values.email).trim() }
          }
          passwordLabel={t('auth.password')}
        />
        <FormError message={form.failure} />
        <SubmitButton busy={form.busy}>
          {form.busy ? t('auth.registering') : t('auth.submitRegister')}
        </SubmitButton>
      </form>
      <p className="pass-links">
        <span>{t('auth.haveAccount')}</span> <Link to="/pass/login">{t('action.login')}</Link>
      </p>
    </PassLayout>
  );
}
