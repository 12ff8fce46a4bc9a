import type { StaffInfo, StaffSignInStep } from '@swx/contract';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { callAdmin, failureMessage, StaffApiError } from './api.ts';
import { useBackOffice } from './context.ts';
import { Field, SubmitRow } from './Field.tsx';

type Step = { kind: 'password' } | StaffSignInStep;

/**
 * Staff sign-in: email and password, then the authenticator code. At the first sign-in the
 * server answers an enrolment instead: the key (text and otpauth link), a new password to replace
 * the one-time password, and the first code.
 */
export function SignIn({
  onSignedIn,
}: {
  onSignedIn: (session: { token: string; staff: StaffInfo }) => void;
}) {
  const { text } = useBackOffice();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const kind = 'kind' in step ? step.kind : step.step;
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus follows each new step
  useEffect(() => {
    heading.current?.focus();
  }, [kind]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure('');
    try {
      await work();
    } catch (error) {
      setFailure(failureMessage(error, text.error.generic));
      if (error instanceof StaffApiError && error.code === 10028) {
        setStep({ kind: 'password' });
        setCode('');
      }
    } finally {
      setBusy(false);
    }
  };

  /** The code, the failure, and submit / start again: the end of both code steps. */
  const codeStepEnd = (submit: string) => (
    <>
      <Field
        label={text.signIn.code}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        error={errors.code}
        onChange={(e) => setCode(e.target.value)}
      />
      <SubmitRow failure={failure} busy={busy} label={submit}>
        <button type="button" onClick={() => setStep({ kind: 'password' })}>
          {text.signIn.restart}
        </button>
      </SubmitRow>
    </>
  );

  const codeError = () => (/^\d{6}$/.test(code.trim()) ? undefined : text.error.codeFormat);

  if ('step' in step && step.step === 'enrol') {
    return (
      <StepForm
        heading={heading}
        title={text.signIn.enrolHeading}
        onSubmit={() => {
          const found: Record<string, string> = {};
          const c = codeError();
          if (c) found.code = c;
          if (step.newPasswordRequired && newPassword.length < 12)
            found.newPassword = text.error.passwordShort;
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          void run(async () => {
            onSignedIn(
              await callAdmin('enrol', {
                body: {
                  challenge: step.challenge,
                  code: code.trim(),
                  ...(step.newPasswordRequired ? { newPassword } : {}),
                },
              }),
            );
          });
        }}
      >
        <p>{text.signIn.enrolHint}</p>
        <dl className="secret">
          <dt>{text.signIn.secretLabel}</dt>
          <dd>
            <code data-testid="staff-totp-secret">{step.secret.replace(/(.{4})(?=.)/g, '$1 ')}</code>
          </dd>
        </dl>
        <p>
          <a href={step.uri}>{text.signIn.openLink}</a>
        </p>
        {step.newPasswordRequired ? (
          <Field
            label={text.signIn.newPassword}
            hint={text.signIn.newPasswordHint}
            type="password"
            autoComplete="new-password"
            value={newPassword}
            error={errors.newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
          />
        ) : null}
        {codeStepEnd(text.signIn.confirm)}
      </StepForm>
    );
  }

  if ('step' in step && step.step === 'totp') {
    return (
      <StepForm
        heading={heading}
        title={text.signIn.codeHeading}
        onSubmit={() => {
          const c = codeError();
          setErrors(c ? { code: c } : {});
          if (c) return;
          void run(async () => {
            onSignedIn(
              await callAdmin('verifyCode', { body: { challenge: step.challenge, code: code.trim() } }),
            );
          });
        }}
      >
        <p>{text.signIn.codeHint}</p>
        {codeStepEnd(text.signIn.verify)}
      </StepForm>
    );
  }

  return (
    <StepForm
      heading={heading}
      title={text.signIn.heading}
      onSubmit={() => {
        const found: Record<string, string> = {};
        if (!email.trim()) found.email = text.error.required;
        if (!password) found.password = text.error.required;
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        void run(async () => {
          const next = await callAdmin('signIn', { body: { email: email.trim(), password } });
          setCode('');
          setPassword('');
          setStep(next);
        });
      }}
    >
      <Field
        label={text.signIn.email}
        type="email"
        autoComplete="username"
        value={email}
        error={errors.email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Field
        label={text.signIn.password}
        type="password"
        autoComplete="current-password"
        value={password}
        error={errors.password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <SubmitRow failure={failure} busy={busy} label={text.signIn.next} />
    </StepForm>
  );
}

/** One step of the sign-in: the panel, its heading (focused at each new step) and its fields. */
function StepForm({
  heading,
  title,
  onSubmit,
  children,
}: {
  heading: RefObject<HTMLHeadingElement | null>;
  title: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="panel narrow"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </form>
  );
}
