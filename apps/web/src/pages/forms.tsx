import type { InputHTMLAttributes, ReactNode } from 'react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiFailure } from '../app/api.ts';
import { logIn, type UserInfo } from '../app/state.ts';

/** A labelled field with its hint and error tied to the input for screen readers. */
export function Field({
  label,
  hint,
  error,
  children,
  ...input
}: {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  children?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-row">
        <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {children}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FormError({ message }: { message: string }) {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}

/**
 * Signing in (login or registration): runs the call, stores the session and goes to My account;
 * a refusal becomes the form's localized error. Shared so both forms behave the same. A call that
 * resolves with null has more to ask (the second login step): nothing is stored yet. `onFailure`
 * may take a refusal over (and return true) instead of showing it.
 */
export function useSignIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const signIn = async (
    call: () => Promise<{ token: string; userInfo: UserInfo } | null>,
    onFailure?: (error: unknown) => boolean,
  ) => {
    setBusy(true);
    setFailure('');
    try {
      const result = await call();
      if (result) {
        logIn(result.token, result.userInfo);
        navigate('/profile', { replace: true });
      }
    } catch (error) {
      if (!onFailure?.(error)) setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, signIn };
}

/** The verification-code field with its "Send code" button and resend countdown. */
export function CodeField({
  value,
  error,
  onChange,
  send,
}: {
  value: string;
  error?: string | undefined;
  onChange: (event: React.ChangeEvent<HTMLInputElement>) => void;
  /** Sends a code; resolves with the seconds before another may be sent, or null when refused. */
  send: () => Promise<number | null>;
}) {
  const { t } = useTranslation();
  const [resendIn, setResendIn] = useState(0);
  useEffect(() => {
    if (resendIn <= 0) return;
    const timer = setTimeout(() => setResendIn((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [resendIn]);
  return (
    <Field
      label={t('auth.code')}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={value}
      error={error}
      onChange={onChange}
    >
      <button
        type="button"
        className="button ghost"
        disabled={resendIn > 0}
        onClick={async () => {
          const wait = await send();
          if (wait) setResendIn(wait);
        }}
      >
        {resendIn > 0 ? t('auth.resendIn', { seconds: resendIn }) : t('auth.sendCode')}
      </button>
    </Field>
  );
}

/** A new password and its repetition, with the shared hint. */
export function NewPasswordFields({
  label,
  password,
  password2,
  errors,
  onPassword,
  onPassword2,
}: {
  label: string;
  password: string;
  password2: string;
  errors: { password?: string | undefined; password2?: string | undefined };
  onPassword: (event: React.ChangeEvent<HTMLInputElement>) => void;
  onPassword2: (event: React.ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={label}
        hint={t('auth.passwordHint')}
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        error={errors.password}
        onChange={onPassword}
      />
      <Field
        label={t('auth.password2')}
        name="password2"
        type="password"
        autoComplete="new-password"
        value={password2}
        error={errors.password2}
        onChange={onPassword2}
      />
    </>
  );
}

/** Checks of a new password pair, with the spec's messages. */
export function newPasswordErrors(
  t: (key: string) => string,
  password: string,
  password2: string,
): { password?: string; password2?: string } {
  const e: { password?: string; password2?: string } = {};
  if (!password) e.password = t('auth.error.enterPassword');
  else if (password.length < 8) e.password = t('auth.error.passwordShort');
  if (!password2) e.password2 = t('auth.error.enterPassword2');
  else if (password2 !== password) e.password2 = t('auth.error.mismatch');
  return e;
}
