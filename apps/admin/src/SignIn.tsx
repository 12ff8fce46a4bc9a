import type { StaffInfo, StaffSignInStep } from '@swx/contract';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { callAdmin, failureMessage, StaffApiError } from './api.ts';
import { useBackOffice } from './context.ts';
import { Field, SubmitRow } from './Field.tsx';

type Step = { kind: 'password' } | StaffSignInStep;
type Enrol = Extract<StaffSignInStep, { step: 'enrol' }>;
type Totp = Extract<StaffSignInStep, { step: 'totp' }>;
type SignedIn = (session: { token: string; staff: StaffInfo }) => void;

/** The sign-in across its steps: what is typed, the step (its heading focused), errors and the call. */
function useSignIn() {
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

  /** A call of a step; a challenge that ran out (10028) starts again from the password. */
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
  const codeError = () => (/^\d{6}$/.test(code.trim()) ? undefined : text.error.codeFormat);
  return {
    step,
    setStep,
    email,
    setEmail,
    password,
    setPassword,
    newPassword,
    setNewPassword,
    code,
    setCode,
    errors,
    setErrors,
    failure,
    busy,
    heading,
    run,
    codeError,
  };
}

type Flow = ReturnType<typeof useSignIn>;

/** The code, the failure, and submit / start again: the end of both code steps. */
function CodeStepEnd({ flow, submit }: { flow: Flow; submit: string }) {
  const { text } = useBackOffice();
  return (
    <>
      <Field
        label={text.signIn.code}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={flow.code}
        error={flow.errors.code}
        onChange={(e) => flow.setCode(e.target.value)}
      />
      <SubmitRow failure={flow.failure} busy={flow.busy} label={submit}>
        <button type="button" onClick={() => flow.setStep({ kind: 'password' })}>
          {text.signIn.restart}
        </button>
      </SubmitRow>
    </>
  );
}

/** The first sign-in: the key to add to an authenticator, a new password if asked, the first code. */
function EnrolStep({ flow, step, onSignedIn }: { flow: Flow; step: Enrol; onSignedIn: SignedIn }) {
  const { text } = useBackOffice();
  const submit = () => {
    const found: Record<string, string> = {};
    const c = flow.codeError();
    if (c) found.code = c;
    if (step.newPasswordRequired && flow.newPassword.length < 12)
      found.newPassword = text.error.passwordShort;
    flow.setErrors(found);
    if (Object.keys(found).length > 0) return;
    void flow.run(async () => {
      onSignedIn(
        await callAdmin('enrol', {
          body: {
            challenge: step.challenge,
            code: flow.code.trim(),
            ...(step.newPasswordRequired ? { newPassword: flow.newPassword } : {}),
          },
        }),
      );
    });
  };
  return (
    <StepForm heading={flow.heading} title={text.signIn.enrolHeading} onSubmit={submit}>
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
          value={flow.newPassword}
          error={flow.errors.newPassword}
          onChange={(e) => flow.setNewPassword(e.target.value)}
        />
      ) : null}
      <CodeStepEnd flow={flow} submit={text.signIn.confirm} />
    </StepForm>
  );
}

/** The authenticator's code of a staff member already enrolled. */
function CodeStep({ flow, step, onSignedIn }: { flow: Flow; step: Totp; onSignedIn: SignedIn }) {
  const { text } = useBackOffice();
  const submit = () => {
    const c = flow.codeError();
    flow.setErrors(c ? { code: c } : {});
    if (c) return;
    void flow.run(async () => {
      onSignedIn(
        await callAdmin('verifyCode', { body: { challenge: step.challenge, code: flow.code.trim() } }),
      );
    });
  };
  return (
    <StepForm heading={flow.heading} title={text.signIn.codeHeading} onSubmit={submit}>
      <p>{text.signIn.codeHint}</p>
      <CodeStepEnd flow={flow} submit={text.signIn.verify} />
    </StepForm>
  );
}

/** Email and password; the server answers the next step (enrolment or the code). */
function PasswordStep({ flow }: { flow: Flow }) {
  const { text } = useBackOffice();
  const submit = () => {
    const found: Record<string, string> = {};
    if (!flow.email.trim()) found.email = text.error.required;
    if (!flow.password) found.password = text.error.required;
    flow.setErrors(found);
    if (Object.keys(found).length > 0) return;
    void flow.run(async () => {
      const next = await callAdmin('signIn', { body: { email: flow.email.trim(), password: flow.password } });
      flow.setCode('');
      flow.setPassword('');
      flow.setStep(next);
    });
  };
  return (
    <StepForm heading={flow.heading} title={text.signIn.heading} onSubmit={submit}>
      <Field
        label={text.signIn.email}
        type="email"
        autoComplete="username"
        value={flow.email}
        error={flow.errors.email}
        onChange={(e) => flow.setEmail(e.target.value)}
      />
      <Field
        label={text.signIn.password}
        type="password"
        autoComplete="current-password"
        value={flow.password}
        error={flow.errors.password}
        onChange={(e) => flow.setPassword(e.target.value)}
      />
      <SubmitRow failure={flow.failure} busy={flow.busy} label={text.signIn.next} />
    </StepForm>
  );
}

/**
 * Staff sign-in: email and password, then the authenticator code. At the first sign-in the
 * server answers an enrolment instead: the key (text and otpauth link), a new password to replace
 * the one-time password, and the first code.
 */
export function SignIn({ onSignedIn }: { onSignedIn: SignedIn }) {
  const flow = useSignIn();
  const { step } = flow;
  if ('step' in step && step.step === 'enrol')
    return <EnrolStep flow={flow} step={step} onSignedIn={onSignedIn} />;
  if ('step' in step && step.step === 'totp')
    return <CodeStep flow={flow} step={step} onSignedIn={onSignedIn} />;
  return <PasswordStep flow={flow} />;
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
