import { z } from 'zod/mini';

/** Login name: a username (letters, digits, _ . -) or an email address. */
export const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/;

export const userNameField = z.string().check(z.trim(), z.minLength(1), z.maxLength(254));
export const passwordField = z.string().check(z.minLength(8), z.maxLength(128));
export const codeField = z.string().check(z.trim(), z.regex(/^\d{6}$/));

export const checkUserNameQuery = z.object({ userName: userNameField });
export const availability = z.object({ available: z.boolean() });

export const sendCodeBody = z.object({
  email: z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL)),
  purpose: z.enum(['register', 'reset']),
});
export const sentCode = z.object({ expiresInSeconds: z.int(), resendInSeconds: z.int() });

export const registerBody = z.object({
  userName: userNameField,
  email: z.optional(z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL))),
  password: passwordField,
  password2: z.string(),
  code: codeField,
});

export const resetPasswordBody = z.object({
  email: z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL)),
  code: codeField,
  password: passwordField,
  password2: z.string(),
});

export const loginBody = z.object({
  userName: userNameField,
  password: z.string().check(z.minLength(1), z.maxLength(128)),
});
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

/** A notice (spec §3): readState 0 means unread. */
export const notice = z.object({
  id: z.int(),
  noticeContent: z.string(),
  readState: z.int(),
  createdAt: z.string(),
});
export type Notice = z.infer<typeof notice>;
export const noticeListQuery = z.object({
  readState: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(1))),
});
export const readNoticeQuery = z.object({ noticeId: z.coerce.number().check(z.int(), z.minimum(1)) });

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
