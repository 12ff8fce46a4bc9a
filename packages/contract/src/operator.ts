import { z } from 'zod/mini';
import { COUNTRIES } from './kyc.ts';
import { LANGUAGES } from './languages.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';

/**
 * Who operates the platform (DESIGN §2 rule 9): company, registration, regulator and licence,
 * support contacts, the risk figure, leaders, partners, app-store and social links. Staff with the
 * admin role set it in the back office; the customer pages render only what is set. With no
 * company name the installation is a sandbox, and the pages say so.
 */

/** Social networks the footer has an icon for. */
export const SOCIAL_NETWORKS = ['x', 'telegram', 'facebook', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Top-level domains reserved for tests and examples (RFC 2606/6761): never shown to customers. */
const RESERVED_TLD = /\.(localhost|test|example|invalid|local)\.?$/i;

/** One line of text: no control characters, no brackets or braces (placeholders and templates). */
const line = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(max),
      z.regex(/^[^\p{Cc}\p{Cf}[\]{}<>]*$/u, { message: 'plain text' }),
    );

/** Text per language: at least one; a reader gets their language, else English, else the first. */
const localized = (max: number) =>
  z
    .partialRecord(z.enum(LANGUAGES), line(max))
    .check(z.refine((value) => Object.keys(value).length > 0, { message: 'at least one language' }));

/** An https address on a public host name: no credentials, no reserved test domain, no brackets. */
export function isPublicHttpsUrl(value: string): boolean {
  const match =
    /^https:\/\/((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62})(?::\d{1,5})?(?:[/?#][^\s<>"{}[\]\\]*)?$/i.exec(
      value,
    );
  return match !== null && !RESERVED_TLD.test(match[1] ?? '');
}

const httpsUrl = z
  .string()
  .check(z.trim(), z.maxLength(500), z.refine(isPublicHttpsUrl, { message: 'https address' }));

/** A picture served by this site (no third-party requests from customers' browsers, rule 8). */
const sitePath = z
  .string()
  .check(
    z.trim(),
    z.maxLength(200),
    z.regex(/^\/(?!\/)[A-Za-z0-9._~/-]+\.(png|jpe?g|webp|avif|svg)$/i, { message: 'path on this site' }),
  );

const email = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.maxLength(254),
  z.regex(/^[^\s@[\]{}<>]{1,64}@[^\s@[\]{}<>]{1,190}\.[^\s@[\]{}<>]{2,24}$/, { message: 'email' }),
  z.refine((value) => !RESERVED_TLD.test(value), { message: 'email' }),
);

const phone = z.string().check(z.trim(), z.regex(/^\+[0-9][0-9 ()-]{5,24}$/, { message: 'phone' }));

/** ISO 3166-1 alpha-2 code (rendered with Intl.DisplayNames in the reader's language). */
const countryCode = z.string().check(
  z.trim(),
  z.toUpperCase(),
  z.refine((code) => COUNTRIES.includes(code), { message: 'country' }),
);

/** Percentage of retail accounts that lose money: 0 to 100, at most two decimals. */
const percent = z
  .string()
  .check(z.trim(), z.regex(/^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/, { message: 'percent' }));

const isoDate = z.string().check(
  z.trim(),
  z.regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'date' }),
  z.refine(
    (value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    },
    { message: 'date' },
  ),
);

export const operatorLeader = z.object({
  name: line(120),
  role: localized(120),
  photoUrl: z.optional(sitePath),
});
export type OperatorLeader = z.infer<typeof operatorLeader>;

export const operatorPartner = z.object({ name: line(120), url: z.optional(httpsUrl) });
export type OperatorPartner = z.infer<typeof operatorPartner>;

export const operatorSocial = z.object({ network: z.enum(SOCIAL_NETWORKS), url: httpsUrl });

/** Fields that describe a company: they mean nothing without the company's name. */
export const COMPANY_FIELDS = [
  'registrationNumber',
  'registrationCountry',
  'registeredAddress',
  'regulator',
  'licenceNumber',
  'registerUrl',
  'riskPercent',
] as const;

const settingsShape = z.object({
  companyName: z.optional(line(200)),
  registrationNumber: z.optional(line(100)),
  registrationCountry: z.optional(countryCode),
  registeredAddress: z.optional(line(300)),
  regulator: z.optional(line(200)),
  licenceNumber: z.optional(line(100)),
  /** The regulator's public register entry. */
  registerUrl: z.optional(httpsUrl),
  supportEmail: z.optional(email),
  supportPhone: z.optional(phone),
  supportHours: z.optional(localized(200)),
  riskPercent: z.optional(percent),
  riskAsOf: z.optional(isoDate),
  leaders: z.array(operatorLeader).check(z.maxLength(12)),
  partners: z.array(operatorPartner).check(z.maxLength(24)),
  appStoreUrl: z.optional(httpsUrl),
  googlePlayUrl: z.optional(httpsUrl),
  social: z.array(operatorSocial).check(z.maxLength(SOCIAL_NETWORKS.length)),
});
type SettingsShape = z.infer<typeof settingsShape>;

export const operatorSettings = settingsShape.check(
  z.refine(
    (s: SettingsShape) => s.companyName !== undefined || COMPANY_FIELDS.every((f) => s[f] === undefined),
    {
      message: 'company name first',
      path: ['companyName'],
    },
  ),
  z.refine((s: SettingsShape) => s.licenceNumber === undefined || s.regulator !== undefined, {
    message: 'regulator first',
    path: ['regulator'],
  }),
  z.refine((s: SettingsShape) => s.registerUrl === undefined || s.regulator !== undefined, {
    message: 'regulator first',
    path: ['regulator'],
  }),
  z.refine((s: SettingsShape) => (s.riskPercent === undefined) === (s.riskAsOf === undefined), {
    message: 'percent and date together',
    path: ['riskAsOf'],
  }),
  z.refine((s: SettingsShape) => new Set(s.social.map((item) => item.network)).size === s.social.length, {
    message: 'one link per network',
    path: ['social'],
  }),
);
export type OperatorSettings = z.infer<typeof operatorSettings>;

export const EMPTY_OPERATOR_SETTINGS: OperatorSettings = { leaders: [], partners: [], social: [] };

/** What customers read: the settings, and whether this is the sandbox (no company named). */
export const operatorInfo = z.extend(settingsShape, {
  sandbox: z.boolean(),
  updatedAt: z.nullable(z.string()),
});
export type OperatorInfo = z.infer<typeof operatorInfo>;

/** What staff read: the settings with who changed them last and when. */
export const operatorSettingsRecord = z.object({
  settings: settingsShape,
  updatedAt: z.nullable(z.string()),
  updatedBy: z.nullable(z.string()),
});
export type OperatorSettingsRecord = z.infer<typeof operatorSettingsRecord>;

/** Staff calls of the operator settings (admin only, every change audited), under /swx/admin. */
export const operatorAdminCalls = {
  getOperatorSettings: {
    method: 'GET',
    path: '/settings/operator',
    summary: 'The operator identity shown to customers, with who changed it last',
    roles: STAFF_DUTIES.operatorSettings.roles,
    data: operatorSettingsRecord,
  },
  setOperatorSettings: {
    method: 'POST',
    path: '/settings/operator',
    summary:
      'Replace the operator identity (company, regulator, contacts, risk figure, leaders, links); audited',
    roles: STAFF_DUTIES.operatorSettings.roles,
    body: operatorSettings,
    data: operatorSettingsRecord,
  },
} as const satisfies Record<string, AdminCallDefinition>;
