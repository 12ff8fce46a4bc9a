import { z } from 'zod/mini';
import { wireId, wireInt } from './ids.ts';
import { PHONE_CODES } from './kyc.ts';

/** Login name: a username (letters, digits, _ . -) or an email address. */
export const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/;

export const userNameField = z.string().check(z.trim(), z.minLength(1), z.maxLength(254));
export const passwordField = z.string().check(z.minLength(8), z.maxLength(128));
export const emailField = z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL));
export const codeField = z.string().check(z.trim(), z.regex(/^\d{6}$/));
/** An invite code: 8 characters of INVITE_CODE_ALPHABET (`invites.ts`), read case-blind. */
export const inviteCode = z
  .string()
  .check(z.trim(), z.toUpperCase(), z.regex(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/));

/**
 * Phone numbers (spec §3 area codes): the area code from the list and the national number in
 * digits. Stored and compared as E.164, `+<area><number>`, at most 15 digits in all.
 */
export type AreaCode = (typeof PHONE_CODES)[number];
export const areaCodeField = z.enum(PHONE_CODES);
export const phoneNumberField = z.string().check(z.trim(), z.regex(/^[0-9]{4,14}$/));
/** E.164 as stored: a plus, then 7 to 15 digits (the area code's included). */
export const E164 = /^\+[1-9][0-9]{6,14}$/;

/**
 * The E.164 form of an area code and a national number, or null when it is not a valid number.
 * Spaces, dots, dashes and brackets are ignored; the national trunk prefix 0 is dropped (07700 …
 * in the UK is +44 7700 …) except for Italy (+39), where the leading 0 of a landline belongs to
 * the number. The whole has at most 15 digits (E.164).
 */
export function phoneE164(areaCode: string, number: string): string | null {
  if (!(PHONE_CODES as readonly string[]).includes(areaCode)) return null;
  let digits = number.replace(/[\s().-]/g, '');
  if (!/^[0-9]+$/.test(digits)) return null;
  if (areaCode !== '+39') digits = digits.replace(/^0+/, '');
  const e164 = `${areaCode}${digits}`;
  return digits.length >= 4 && E164.test(e164) ? e164 : null;
}

/** A typed login that is a phone in E.164 (`+447700900123`, spaces and dashes allowed), else null. */
export function phoneFromLogin(login: string): string | null {
  const compact = login.trim().replace(/[\s().-]/g, '');
  return E164.test(compact) ? compact : null;
}

type PhoneParts = { areaCode?: string | undefined; phone?: string | undefined };
const bothOrNeither = (body: PhoneParts) => (body.areaCode === undefined) === (body.phone === undefined);
const validPhone = (body: PhoneParts) =>
  body.areaCode === undefined || body.phone === undefined || phoneE164(body.areaCode, body.phone) !== null;
const phoneChecks = [
  z.refine<PhoneParts>(bothOrNeither, { message: 'areaCode and phone go together', path: ['phone'] }),
  z.refine<PhoneParts>(validPhone, {
    message: 'not a valid phone number (at most 15 digits)',
    path: ['phone'],
  }),
] as const;
/** The account is named one way: by `field`, or by its phone (areaCode + phone). */
const phoneOr = (field: 'userName' | 'email') =>
  z.refine<PhoneParts & { userName?: string | undefined; email?: string | undefined }>(
    (body) => (body[field] === undefined) !== (body.phone === undefined),
    { message: `exactly one of ${field} and phone`, path: [field] },
  );

export const checkUserNameQuery = z
  .object({
    userName: z.optional(userNameField),
    areaCode: z.optional(areaCodeField),
    phone: z.optional(phoneNumberField),
  })
  .check(...phoneChecks, phoneOr('userName'));
export const availability = z.object({ available: z.boolean() });

export const sendCodeBody = z.object({
  email: emailField,
  purpose: z.enum(['register', 'reset']),
});
export const sendSmsCodeBody = z
  .object({
    areaCode: areaCodeField,
    phone: phoneNumberField,
    purpose: z.enum(['register', 'reset']),
  })
  .check(...phoneChecks);
export const sentCode = z.object({ expiresInSeconds: z.int(), resendInSeconds: z.int() });

/** A username or email (the mailed code), or a phone (areaCode + phone, the SMS code). */
export const registerBody = z
  .object({
    userName: z.optional(userNameField),
    email: z.optional(emailField),
    areaCode: z.optional(areaCodeField),
    phone: z.optional(phoneNumberField),
    password: passwordField,
    password2: z.string(),
    code: codeField,
    /** The invite code of the customer who invited me (the link's `invite`); links me to them for good. */
    inviteCode: z.optional(inviteCode),
  })
  .check(...phoneChecks, phoneOr('userName'));

/** Recovery by the account's email (mailed code) or its phone (SMS code). */
export const resetPasswordBody = z
  .object({
    email: z.optional(emailField),
    areaCode: z.optional(areaCodeField),
    phone: z.optional(phoneNumberField),
    code: codeField,
    password: passwordField,
    password2: z.string(),
  })
  .check(...phoneChecks, phoneOr('email'));

/** A username, email or E.164 phone in userName; or the phone as areaCode + phone. */
export const loginBody = z
  .object({
    userName: z.optional(userNameField),
    areaCode: z.optional(areaCodeField),
    phone: z.optional(phoneNumberField),
    password: z.string().check(z.minLength(1), z.maxLength(128)),
  })
  .check(...phoneChecks, phoneOr('userName'));
export const userInfoData = z.object({ id: z.int(), userName: z.string() });
export const loginResult = z.object({ token: z.string(), userInfo: userInfoData });
/** The password was right and the account has two-step verification: no token yet. */
export const twoFactorChallenge = z.object({ twoFactor: z.literal(true), challenge: z.string() });
/** Login answers the session (spec §7), or a challenge for `loginTotp` when 2FA is on. */
export const loginAnswer = z.union([loginResult, twoFactorChallenge]);
export const emptyData = z.null();

/** The opaque challenge a password login with 2FA answers: 256 random bits, base64url. */
export const challengeField = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));
/** A recovery code as printed (XXXX-XXXX-XXXX-XXXX); spaces, dashes and case do not matter. */
export const recoveryCodeField = z.string().check(z.trim(), z.minLength(8), z.maxLength(40));

export const loginTotpBody = z
  .object({
    challenge: challengeField,
    code: z.optional(codeField),
    recoveryCode: z.optional(recoveryCodeField),
  })
  .check(
    z.refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
      message: 'exactly one of code and recoveryCode',
      path: ['code'],
    }),
  );

export const repasswordBody = z.object({
  oldPassword: z.string().check(z.minLength(1), z.maxLength(128)),
  password: passwordField,
  password2: z.string(),
});

/** One of my sessions: a public random id (never the token or its hash), device and masked address. */
export const sessionItem = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** Browser and major version, e.g. "Firefox 128"; empty when not recognised. */
  browser: z.string(),
  /** Operating system, e.g. "Windows"; empty when not recognised. */
  os: z.string(),
  /** The address with its host part hidden: 203.0.113.* or 2001:db8:1::* */
  ip: z.string(),
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItem>;
export const revokeSessionBody = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const totpStatus = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.int() });
/** A new authenticator secret (base32) and its otpauth URI; pending until enableTotp confirms a code. */
export const totpSetup = z.object({ secret: z.string(), uri: z.string() });
export const enableTotpBody = z.object({ code: codeField });
export const recoveryCodesData = z.object({ recoveryCodes: z.array(z.string()) });
/** The password and a current authenticator code, or an unused recovery code. */
export const disableTotpBody = z.object({
  password: z.string().check(z.minLength(1), z.maxLength(128)),
  code: z.string().check(z.trim(), z.minLength(6), z.maxLength(40)),
});

/**
 * A notice (spec §3): readState 0 means unread. `mustRead` (its kind's weight, declared where the
 * kind is): an unread one opens the blocking dialog; a routine one (activity the customer asked
 * for) waits in the notification list.
 */
export const notice = z.object({
  id: z.int(),
  noticeContent: z.string(),
  readState: z.int(),
  createdAt: z.string(),
  mustRead: z.boolean(),
});
export type Notice = z.infer<typeof notice>;
export const noticeListQuery = z.object({
  readState: z.optional(wireInt(0, 1)),
});
export const readNoticeQuery = z.object({ noticeId: wireId() });

/** A social sign-in provider the server offers: its name in paths, and the label of its button. */
export const socialProvider = z.object({ provider: z.string(), label: z.string() });
/** The provider in `loginBy{Provider}`: `Google` or `google` alike. */
export const socialProviderParams = z.object({
  provider: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9]{1,19}$/)),
});
/** Where the browser goes next: the provider's authorization URL. */
export const socialStart = z.object({ authorizationUrl: z.string() });
/** What the provider sent back to /api/loginCallback/{provider}: code, state and (RFC 9207) iss. */
export const socialCallbackBody = z.object({
  code: z.string().check(z.minLength(1), z.maxLength(2048)),
  state: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)),
  iss: z.optional(z.string().check(z.maxLength(2048))),
});
