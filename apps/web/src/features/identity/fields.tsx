import { PHONE_CODES, phoneE164 } from '@swx/contract';
import type { TFunction } from 'i18next';
import type { InputHTMLAttributes, ReactNode, RefObject } from 'react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatNumber } from '../../app/i18n.ts';
import { safeReturnPath } from '../../app/returnTo.ts';
import { logIn, type UserInfo, useClientState } from '../../app/state.ts';

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
 * A modal dialog's buttons: one that closes it, and the primary one, which submits the dialog's
 * form when no `onConfirm` is given.
 */
export function DialogButtons({
  dialog,
  cancel,
  confirm,
  disabled,
  onConfirm,
  className = 'row end',
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  cancel: string;
  confirm: string;
  disabled: boolean;
  onConfirm?: () => void;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" className="button ghost" onClick={() => dialog.current?.close()}>
        {cancel}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className="button primary"
        disabled={disabled}
        onClick={onConfirm}
      >
        {confirm}
      </button>
    </div>
  );
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
  const [search] = useSearchParams();
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
        // Back to the page the customer wanted (an in-app path only), else the account.
        navigate(safeReturnPath(search.get('return')) ?? '/profile', { replace: true });
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
  const language = useClientState((s) => s.language);
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
        {resendIn > 0
          ? t('auth.resendIn', { seconds: formatNumber(language, resendIn) })
          : t('auth.sendCode')}
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

/** How the customer identifies: a username or email, or a phone number. */
export type IdentifierMode = 'name' | 'phone';

/** The choice between email/username and phone, as a labelled radio group. */
export function IdentifierChoice({
  legend,
  nameLabel,
  mode,
  onChange,
}: {
  legend: string;
  nameLabel: string;
  mode: IdentifierMode;
  onChange: (mode: IdentifierMode) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const option = (value: IdentifierMode, label: string) => (
    <label>
      <input
        type="radio"
        name={name}
        value={value}
        checked={mode === value}
        onChange={() => onChange(value)}
      />
      {label}
    </label>
  );
  return (
    <fieldset className="id-choice">
      <legend>{legend}</legend>
      <div className="id-choice-options">
        {option('name', nameLabel)}
        {option('phone', t('phone.optionPhone'))}
      </div>
    </fieldset>
  );
}

/** A number kept left to right inside any text (Arabic too): Unicode isolates around it. */
export const isolate = (text: string | null) => `\u2066${text ?? ''}\u2069`;

/** The number as typed, without spaces, dots, dashes or brackets. */
export const phoneDigits = (typed: string) => typed.replace(/[\s().-]/g, '');

/** A phone number: the area-code select (spec §3 codes) and the number, each with its label. */
export function PhoneFields({
  areaCode,
  phone,
  error,
  onAreaCode,
  onPhone,
}: {
  areaCode: string;
  phone: string;
  error?: string | undefined;
  onAreaCode: (value: string) => void;
  onPhone: (value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field phone-field">
      <div className="phone-row">
        <div className="phone-area">
          <label htmlFor={`${id}-area`}>{t('phone.areaCode')}</label>
          <select
            id={`${id}-area`}
            name="areaCode"
            dir="ltr"
            autoComplete="tel-country-code"
            value={areaCode}
            onChange={(event) => onAreaCode(event.target.value)}
          >
            {PHONE_CODES.map((code) => (
              <option key={code} value={code} dir="ltr">
                {/* A left-to-right mark keeps the plus before the digits in Arabic too. */}
                {`\u200e${code}`}
              </option>
            ))}
          </select>
        </div>
        <div className="phone-number">
          <label htmlFor={`${id}-number`}>{t('phone.number')}</label>
          <input
            id={`${id}-number`}
            name="phone"
            type="tel"
            dir="ltr"
            inputMode="tel"
            autoComplete="tel-national"
            maxLength={20}
            value={phone}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            onChange={(event) => onPhone(event.target.value)}
          />
        </div>
      </div>
      <p id={hintId} className="field-hint">
        {t('phone.numberHint')}
      </p>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The check of a phone number: its E.164 form, or the localized error. */
export function checkPhone(
  t: (key: string) => string,
  areaCode: string,
  typed: string,
): { e164: string | null; error?: string } {
  const digits = phoneDigits(typed);
  if (!digits) return { e164: null, error: t('phone.error.enterPhone') };
  const e164 = phoneE164(areaCode, digits);
  return e164 ? { e164 } : { e164: null, error: t('phone.error.phoneFormat') };
}

/** Where a verification code goes: a phone (SMS) or an email address (mail). */
export type CodeTarget = { areaCode: string; phone: string } | { email: string };

/**
 * Sends a registration or recovery code by SMS or mail; answers the seconds until a resend may be
 * asked and the localized notice saying where the code went.
 */
export async function sendVerificationCode(
  t: TFunction,
  target: CodeTarget,
  purpose: 'register' | 'reset',
): Promise<{ resendInSeconds: number; notice: string }> {
  if ('phone' in target) {
    const sent = await callApi('sendSmsCode', {
      body: { areaCode: target.areaCode, phone: phoneDigits(target.phone), purpose },
    });
    const e164 = checkPhone(t, target.areaCode, target.phone).e164;
    return { resendInSeconds: sent.resendInSeconds, notice: t('phone.codeSent', { phone: isolate(e164) }) };
  }
  const sent = await callApi('sendCode', { body: { email: target.email, purpose } });
  return { resendInSeconds: sent.resendInSeconds, notice: t('auth.codeSent', { email: target.email }) };
}

/** The spec's messages for a verification code: enter it, and six digits. */
export function codeError(t: (key: string) => string, code: string): string | undefined {
  if (!code.trim()) return t('auth.error.enterCode');
  return /^\d{6}$/.test(code.trim()) ? undefined : t('auth.error.codeFormat');
}
