import { join } from 'node:path';
import { interpolate, type Language } from '@swx/contract';
import { localeTexts } from '../../platform/texts.ts';

/**
 * Identity's mails and SMS in the ten languages (locales/<language>.json): the verification-code
 * mail and SMS ({{code}}, {{minutes}}; the SMS short, one segment) and the security notices ({{time}}
 * in UTC, {{device}} the browser and system, {{ip}} the masked address), with what to do when it
 * was not the account holder.
 */
const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));

export function codeMail(
  language: Language,
  code: string,
  minutes: number,
): { subject: string; text: string } {
  const t = TEXT[language].codeMail;
  return { subject: t.subject, text: interpolate(t.body, { code, minutes: String(minutes) }) };
}

/** A code that confirms a withdrawal: the mail says so, so a code asked for by someone else is not given away. */
export function actionCodeMail(
  language: Language,
  code: string,
  minutes: number,
): { subject: string; text: string } {
  const t = TEXT[language].actionCodeMail;
  return { subject: t.subject, text: interpolate(t.body, { code, minutes: String(minutes) }) };
}

export type SecurityEvent = 'passwordChanged' | 'totpEnabled' | 'totpDisabled';

export function securityMail(
  language: Language,
  event: SecurityEvent,
  facts: { time: Date; device: string; ip: string },
): { subject: string; text: string } {
  const t = TEXT[language].security;
  const time = facts.time.toISOString().slice(0, 16).replace('T', ' ');
  const body = interpolate(t.body[event], { time, device: facts.device || '?', ip: facts.ip || '?' });
  return { subject: t.subject[event], text: `${body}\n\n${t.footer}` };
}

export function codeSms(language: Language, code: string, minutes: number): string {
  return interpolate(TEXT[language].codeSms, { code, minutes: String(minutes) });
}
