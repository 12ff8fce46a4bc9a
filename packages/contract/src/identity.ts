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
export const emptyData = z.null();

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
