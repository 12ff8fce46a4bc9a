import type { InputHTMLAttributes, ReactNode } from 'react';
import { useId, useState } from 'react';
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
 * a refusal becomes the form's localized error. Shared so both forms behave the same.
 */
export function useSignIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const signIn = async (call: () => Promise<{ token: string; userInfo: UserInfo }>) => {
    setBusy(true);
    setFailure('');
    try {
      const result = await call();
      logIn(result.token, result.userInfo);
      navigate('/profile', { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, setFailure, signIn };
}
