import { PHONE_CODES, phoneE164 } from '@swx/contract';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiFailure, callApi } from '../../app/api.ts';
import { formatNumber } from '../../app/i18n.ts';
import { safeReturnPath } from '../../app/returnTo.ts';
import { logIn, type UserInfo, useClientState } from '../../app/state.ts';
import { Field, useFieldNotes } from '../../ui/Field.tsx';
import { FormNotice } from '../../ui/FormNotice.tsx';
import type { FieldErrors, FormBinding, Values } from '../../ui/form/useContractForm.ts';
import './identity.css';

/**
 * The fields the sign-in forms share (login, register, reset, password change, the second step),
 * bound to a `useContractForm`, and the words of their errors.
 */

/** A refusal's own message (the server's words), else `fallback`. */
export const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiFailure ? error.message : fallback;

/** The spec's message for an issue with an identity field (zod code or the server's), or none. */
export function identityMessage(t: TFunction, field: string, issue: string, values: Values<string>) {
  const typed = (values[field] ?? '').trim();
  switch (field) {
    case 'userName':
      return typed ? t('auth.error.userNameFormat') : t('auth.error.enterUserName');
    case 'email':
      return t('auth.error.emailFormat');
    case 'phone':
      return phoneDigits(typed) ? t('phone.error.phoneFormat') : t('phone.error.enterPhone');
    case 'code':
      return typed ? t('auth.error.codeFormat') : t('auth.error.enterCode');
    case 'password':
      if (issue !== 'too_small') return undefined;
      return values.password ? t('auth.error.passwordShort') : t('auth.error.enterPassword');
    case 'password2':
      return issue === 'mismatch' ? t('auth.error.mismatch') : undefined;
    case 'oldPassword':
      return issue === 'too_small' ? t('settings.password.enterCurrent') : undefined;
    default:
      return undefined;
  }
}

/** The repeated password, which no body schema states: entered, and the same as the first. */
export function repeatedPasswordError(
  t: TFunction,
  values: Values<'password' | 'password2'>,
): FieldErrors<'password2'> {
  if (!values.password2) return { password2: t('auth.error.enterPassword2') };
  return values.password2 === values.password ? {} : { password2: t('auth.error.mismatch') };
}

/**
 * Signing in (login, registration, social return, second step): stores the session and goes on
 * to the page the customer wanted (an in-app path only), else My account.
 */
export function useSignedIn() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (result: { token: string; userInfo: UserInfo }) => {
    logIn(result.token, result.userInfo);
    navigate(safeReturnPath(search.get('return')) ?? '/profile', { replace: true });
  };
}

/**
 * What registration and recovery share after the identifier: the code with its "Send code"
 * button (checking `identifiers` first and sending to `target`), where the code went, and the new
 * password twice.
 */
export function CodeAndNewPassword<K extends string>({
  form,
  purpose,
  identifiers,
  target,
  passwordLabel,
}: {
  form: FormBinding<K | 'code' | 'password' | 'password2'> & { notice: string };
  purpose: 'register' | 'reset';
  identifiers: readonly K[];
  target: () => CodeTarget;
  passwordLabel: string;
}) {
  const send = useCodeSender(form, purpose, identifiers, target);
  return (
    <>
      <CodeField form={form} send={send} />
      <FormNotice message={form.notice} />
      <NewPasswordFields form={form} label={passwordLabel} />
    </>
  );
}

/** The verification-code field with its "Send code" button and resend countdown. */
export function CodeField({
  form,
  send,
}: {
  form: FormBinding<'code'>;
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
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...form.field('code')}
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
  form,
  label,
}: {
  form: FormBinding<'password' | 'password2'>;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={label}
        hint={t('auth.passwordHint')}
        type="password"
        autoComplete="new-password"
        {...form.field('password')}
      />
      <Field
        label={t('auth.password2')}
        type="password"
        autoComplete="new-password"
        {...form.field('password2')}
      />
    </>
  );
}

/** The current password (login, password change). */
export function PasswordField({ form, label }: { form: FormBinding<'password'>; label: string }) {
  return <Field label={label} type="password" autoComplete="current-password" {...form.field('password')} />;
}

/** How the customer identifies: a username or email, or a phone number. */
export type IdentifierMode = 'name' | 'phone';

/**
 * The choice between email/username and phone (a labelled radio group), then the phone fields
 * or `children` (the name fields). A new choice clears the form's errors and messages.
 */
export function IdentifierFields({
  form,
  legend,
  nameLabel,
  children,
}: {
  form: FormBinding<'mode' | 'areaCode' | 'phone'>;
  legend: string;
  nameLabel: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const name = useId();
  const option = (value: IdentifierMode, label: string) => (
    <label>
      <input
        type="radio"
        name={name}
        value={value}
        checked={form.values.mode === value}
        onChange={() => {
          form.setValue('mode', value);
          form.clearMessages();
        }}
      />
      {label}
    </label>
  );
  return (
    <>
      <fieldset className="id-choice">
        <legend>{legend}</legend>
        <div className="id-choice-options">
          {option('name', nameLabel)}
          {option('phone', t('phone.optionPhone'))}
        </div>
      </fieldset>
      {form.values.mode === 'phone' ? <PhoneFields form={form} /> : children}
    </>
  );
}

/** A number kept left to right inside any text (Arabic too): Unicode isolates around it. */
export const isolate = (text: string | null) => `\u2066${text ?? ''}\u2069`;

/** The number as typed, without spaces, dots, dashes or brackets. */
export const phoneDigits = (typed: string) => typed.replace(/[\s().-]/g, '');

/** A phone number: the area-code select (spec §3 codes) and the number, each with its label. */
function PhoneFields({ form }: { form: FormBinding<'areaCode' | 'phone'> }) {
  const { t } = useTranslation();
  const error = form.errors.phone;
  const { id, describedBy, notes } = useFieldNotes(t('phone.numberHint'), error);
  return (
    <div className="field phone-field">
      <div className="phone-row">
        <div className="phone-area">
          <label htmlFor={`${id}-area`}>{t('phone.areaCode')}</label>
          <select
            className="control"
            id={`${id}-area`}
            name="areaCode"
            dir="ltr"
            autoComplete="tel-country-code"
            value={form.values.areaCode}
            onChange={(event) => form.setValue('areaCode', event.target.value)}
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
            value={form.values.phone}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => form.setValue('phone', event.target.value)}
          />
        </div>
      </div>
      {notes}
    </div>
  );
}

/** The phone part of a body: area code and the digits as typed (the server normalises to E.164). */
export function phoneBody(values: Values<'areaCode' | 'phone'>) {
  return { areaCode: values.areaCode, phone: phoneDigits(values.phone) };
}

/** Where a verification code goes: a phone (SMS) or an email address (mail). */
export type CodeTarget = { areaCode: string; phone: string } | { email: string };

/**
 * The "Send code" action of a form (registration, recovery): checks the fields naming where the
 * code goes, sends it by SMS or mail, and says where it went (the form's notice); a refusal is
 * the form's error. Resolves with the seconds before another may be sent, or null.
 */
function useCodeSender<K extends string>(
  form: FormBinding<K>,
  purpose: 'register' | 'reset',
  fields: readonly K[],
  target: () => CodeTarget,
) {
  const { t } = useTranslation();
  return async (): Promise<number | null> => {
    form.setFailure('');
    if (Object.keys(form.validate(fields).errors).length > 0) return null;
    try {
      const to = target();
      if ('phone' in to) {
        const sent = await callApi('sendSmsCode', { body: { ...phoneBody(to), purpose } });
        form.setNotice(
          t('phone.codeSent', { phone: isolate(phoneE164(to.areaCode, phoneDigits(to.phone))) }),
        );
        return sent.resendInSeconds;
      }
      const sent = await callApi('sendCode', { body: { email: to.email, purpose } });
      form.setNotice(t('auth.codeSent', { email: to.email }));
      return sent.resendInSeconds;
    } catch (error) {
      form.setFailure(error instanceof ApiFailure ? error.message : t('state.error'));
      return null;
    }
  };
}

/** The form's notice (where a code went, a change done), read out when it appears. */
export { FormNotice };
