import { Code, loginBody, loginTotpBody } from '@swx/contract';
import { use, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { safeReturnPath } from '../../app/returnTo.ts';
import { getState } from '../../app/state.ts';
import { Field, FormError } from '../../ui/Field.tsx';
import { SubmitButton } from '../../ui/form/SubmitButton.tsx';
import { useContractForm } from '../../ui/form/useContractForm.ts';
import { IdentifierFields, identityMessage, PasswordField, phoneBody, useSignedIn } from './fields.tsx';
import { PassLayout } from './PassLayout.tsx';
import { SocialButtons } from './social.tsx';
import { identityTexts } from './texts.ts';

/**
 * The form of the second step: the app's code, or a recovery code. A challenge that expired, was
 * used or ran out of attempts sends the customer back to the password.
 */
function useSecondStepForm(challenge: string, useRecovery: boolean, onRestart: (message: string) => void) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  return useContractForm({
    schema: loginTotpBody,
    initial: { code: '', recoveryCode: '' },
    toBody: (values) =>
      useRecovery ? { challenge, recoveryCode: values.recoveryCode } : { challenge, code: values.code },
    message: (field, issue) => {
      if (field === 'code') return t('security.login.enterCode');
      return issue === 'too_small' ? t('security.login.enterRecovery') : undefined;
    },
    submit: async (body) => {
      try {
        signedIn(await callApi('loginTotp', { body }));
      } catch (failed) {
        // The challenge expired, was used or ran out of attempts: back to the password.
        if (failed instanceof ApiFailure && failed.code === Code.NOT_FOUND)
          onRestart(t('security.login.expired'));
        else throw failed;
      }
    },
  });
}

/** The code asked for: from the authenticator app, or one of the recovery codes. */
function SecondStepCode({
  form,
  useRecovery,
}: {
  form: ReturnType<typeof useSecondStepForm>;
  useRecovery: boolean;
}) {
  const { t } = useTranslation();
  return useRecovery ? (
    <Field
      key="recovery"
      label={t('security.login.recoveryCode')}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={40}
      {...form.field('recoveryCode')}
    />
  ) : (
    <Field
      key="code"
      label={t('security.login.code')}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...form.field('code')}
      name="totp"
    />
  );
}

/**
 * The second login step, when the account has two-step verification: a code from the
 * authenticator app, or (after the toggle) one of the recovery codes. Social sign-in uses it too.
 */
export function SecondStep({
  challenge,
  onRestart,
}: {
  challenge: string;
  onRestart: (message: string) => void;
}) {
  // Also shown by the social sign-in's return page, which does not go through Login.
  use(identityTexts);
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const form = useSecondStepForm(challenge, useRecovery, onRestart);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <form className="pass-form" onSubmit={form.onSubmit} noValidate data-step="two-factor">
      <h2 ref={heading} tabIndex={-1} className="step-title">
        {t('security.login.title')}
      </h2>
      <p className="muted">{useRecovery ? t('security.login.recoveryHint') : t('security.login.hint')}</p>
      <SecondStepCode form={form} useRecovery={useRecovery} />
      <p>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setUseRecovery((value) => !value);
            form.clearMessages();
          }}
        >
          {useRecovery ? t('security.login.useApp') : t('security.login.useRecovery')}
        </button>
      </p>
      <FormError message={form.failure} />
      <SubmitButton busy={form.busy}>
        {form.busy ? t('security.login.verifying') : t('security.login.submit')}
      </SubmitButton>
      <button type="button" className="button ghost block" onClick={() => onRestart('')}>
        {t('security.login.startOver')}
      </button>
    </form>
  );
}

export default function Login() {
  use(identityTexts);
  const { t } = useTranslation();
  const [challenge, setChallenge] = useState<string | null>(null);
  const signedIn = useSignedIn();
  const form = useContractForm({
    schema: loginBody,
    initial: { mode: 'name', userName: '', areaCode: '+44', phone: '', password: '' },
    toBody: (values) => ({
      ...(values.mode === 'phone' ? phoneBody(values) : { userName: values.userName }),
      password: values.password,
    }),
    message: (field, issue, values) => identityMessage(t, field, issue, values),
    submit: async (body) => {
      const answer = await callApi('login', { body });
      if ('challenge' in answer) setChallenge(answer.challenge);
      else signedIn(answer);
    },
  });
  const [search] = useSearchParams();
  // Logged in already when the page opened: nothing to do here, go on (spec §4). A login made on
  // this page goes on through useSignedIn instead.
  const [loggedInAtOpen] = useState(() => getState().isLogin);
  const expired = search.get('expired') === '1';

  if (loggedInAtOpen) return <Navigate to={safeReturnPath(search.get('return')) ?? '/'} replace />;

  if (challenge) {
    return (
      <PassLayout>
        <SecondStep
          challenge={challenge}
          onRestart={(message) => {
            setChallenge(null);
            form.setValue('password', '');
            form.setFailure(message);
          }}
        />
      </PassLayout>
    );
  }

  return (
    <PassLayout>
      {expired ? (
        <p className="notice-banner" role="status" data-testid="session-expired">
          {t('state.sessionExpired')}
        </p>
      ) : null}
      <form className="pass-form" onSubmit={form.onSubmit} noValidate>
        <IdentifierFields form={form} legend={t('phone.loginWith')} nameLabel={t('phone.optionName')}>
          <Field label={t('auth.userName')} autoComplete="username" {...form.field('userName')} />
        </IdentifierFields>
        <PasswordField form={form} label={t('auth.password')} />
        <FormError message={form.failure} />
        <SubmitButton busy={form.busy}>
          {form.busy ? t('auth.loggingIn') : t('auth.submitLogin')}
        </SubmitButton>
      </form>
      <SocialButtons onError={form.setFailure} />
      <p className="pass-links">
        <span>{t('auth.noAccount')}</span> <Link to="/pass/register">{t('action.signUp')}</Link>
        <span aria-hidden="true"> · </span>
        <Link to="/pass/reset">{t('auth.forgot')}</Link>
      </p>
    </PassLayout>
  );
}
