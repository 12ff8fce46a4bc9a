import { join } from 'node:path';
import { formatDisplay, interpolate, type Language } from '@swx/contract';
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

/** What a withdrawal code confirms: the figures of the customer's pending withdrawal quote. */
export type WithdrawalFacts = { amount: string; asset: string; network: string; address: string };

/**
 * A code that confirms a withdrawal: the mail names what it confirms (amount, asset, network,
 * destination address), so a code asked for by someone else is not given away. The code comes
 * first in every language; the amount as every screen shows it (`formatDisplay`: "200.00", not
 * the wire's "200.000000"), in the reader's number format.
 */
export function actionCodeMail(
  language: Language,
  code: string,
  minutes: number,
  withdrawal: WithdrawalFacts,
): { subject: string; text: string } {
  const t = TEXT[language].actionCodeMail;
  return {
    subject: t.subject,
    text: interpolate(t.body, {
      code,
      minutes: String(minutes),
      ...withdrawal,
      amount: formatDisplay(language, withdrawal.amount, withdrawal.asset),
    }),
  };
}

export type SecurityEvent =
  | 'passwordChanged'
  | 'passwordReset'
  | 'totpEnabled'
  | 'totpDisabled'
  | 'newDevice'
  | 'addressAdded';

/**
 * A security alert mail: what happened, when ({{time}} UTC), from where ({{device}}, the masked
 * {{ip}}; "unknown" when not known), and the one-click lock link ({{link}}).
 */
export function securityMail(
  language: Language,
  event: SecurityEvent,
  facts: { time: Date; device: string; ip: string; network?: string; address?: string; link: string },
): { subject: string; text: string } {
  const t = TEXT[language].security;
  const body = interpolate(t.body[event], {
    time: facts.time.toISOString().slice(0, 16).replace('T', ' '),
    device: facts.device || t.unknown,
    ip: facts.ip || t.unknown,
    network: facts.network ?? '',
    address: facts.address ?? '',
  });
  return { subject: t.subject[event], text: `${body}\n\n${interpolate(t.lock, { link: facts.link })}` };
}

export function codeSms(language: Language, code: string, minutes: number): string {
  return interpolate(TEXT[language].codeSms, { code, minutes: String(minutes) });
}
