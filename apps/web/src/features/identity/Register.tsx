import { Code, EMAIL, registerBody, USERNAME } from '@swx/contract';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
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
import { inviteCodeFrom } from './inviteCode.ts';
import { PassLayout } from './PassLayout.tsx';

/** A username that is an email address needs no second address for the code. */
const isEmail = (userName: string) => EMAIL.test(userName.trim());

/** The invite code's error of the schema: not a code at all (that no customer has it is the server's 10050). */
function inviteCodeMessage(t: TFunction, issue: string): string | undefined {
  return issue === 'invalid_format' ? t('auth.error.inviteCodeFormat') : undefined;
}

/** The registration form: the body the server takes, the name's format and the repeated password checked here. */
function useRegisterForm(inviteCode: string) {
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
      inviteCode,
    },
    toBody: (values) => ({
      ...(values.mode === 'phone'
        ? phoneBody(values)
        : { userName: values.userName, ...(isEmail(values.userName) ? {} : { email: values.email }) }),
      password: values.password,
      password2: values.password2,
      code: values.code,
      ...(values.inviteCode.trim() ? { inviteCode: values.inviteCode } : {}),
    }),
    message: (field, issue, values) =>
      field === 'inviteCode' ? inviteCodeMessage(t, issue) : identityMessage(t, field, issue, values),
    check: (values) => {
      const name = values.userName.trim();
      const nameError =
        values.mode === 'name' && name && !isEmail(name) && !USERNAME.test(name)
          ? { userName: t('auth.error.userNameFormat') }
          : {};
      return { ...nameError, ...repeatedPasswordError(t, values) };
    },
    // An unknown invite code: the server's words, in the reader's language, under the code.
    codeFields: { [Code.INVITE_CODE_UNKNOWN]: 'inviteCode' },
    submit: async (body) => signedIn(await callApi('register', { body })),
  });
}

/**
 * The invite code (optional): typed by hand, or from the invite link (`?invite=CODE`), then shown
 * read-only with whose code it is until the customer chooses to change it.
 */
function InviteCodeField({ form, fromLink }: { form: ReturnType<typeof useRegisterForm>; fromLink: string }) {
  const { t } = useTranslation();
  const [locked, setLocked] = useState(fromLink !== '');
  const field = form.field('inviteCode');
  const hint = locked ? t('auth.invitedWith', { code: `\u2066${fromLink}\u2069` }) : t('auth.inviteCodeHint');
  return (
    <Field
      label={t('auth.inviteCode')}
      hint={hint}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      dir="ltr"
      readOnly={locked}
      {...field}
    >
      {locked ? (
        <button
          type="button"
          className="button ghost small"
          onClick={(event) => {
            // To the code itself (the button goes once it is editable).
            event.currentTarget.closest('.field')?.querySelector('input')?.focus();
            setLocked(false);
          }}
        >
          {t('auth.changeInviteCode')}
        </button>
      ) : null}
    </Field>
  );
}

/** Registration with a username or email (a mailed code) or a phone (an SMS code), then signed in. */
export default function Register() {
  const { t } = useTranslation();
  const fromLink = inviteCodeFrom(useLocation().search);
  const form = useRegisterForm(fromLink);
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
        <InviteCodeField form={form} fromLink={fromLink} />
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
