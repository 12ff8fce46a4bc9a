import {
  LANGUAGES,
  type Language,
  type LocalizedText,
  type OperatorSettingsRecord,
  operatorSettings,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from '@swx/contract';
import { StaffApiError } from '../api.ts';
import type { OperatorText } from './operator.text.ts';

// The operator settings form: its fields as typed, the document they come from and go to, and
// the errors of its fields by the contract's issue paths.

export type Localized = Record<Language, string>;
export type LeaderRow = { key: number; name: string; role: Localized; photoUrl: string };
export type PartnerRow = { key: number; name: string; url: string };
export type Form = {
  companyName: string;
  registrationNumber: string;
  registrationCountry: string;
  registeredAddress: string;
  regulator: string;
  licenceNumber: string;
  registerUrl: string;
  supportEmail: string;
  supportPhone: string;
  supportHours: Localized;
  riskPercent: string;
  riskAsOf: string;
  leaders: LeaderRow[];
  partners: PartnerRow[];
  appStoreUrl: string;
  googlePlayUrl: string;
  social: Record<SocialNetwork, string>;
};
/** Field errors by the contract's issue path ("leaders.0.role", "supportEmail", …). */
export type Errors = Record<string, string>;

let nextKey = 1;
/** A new row's key (rows added and removed keep their fields). */
export const newKey = () => nextKey++;

export const localized = (value: LocalizedText | undefined): Localized =>
  Object.fromEntries(LANGUAGES.map((language) => [language, value?.[language] ?? ''])) as Localized;

/** The form of a stored document: what is not set is blank. */
export function formOf(record: OperatorSettingsRecord): Form {
  const s = record.settings;
  return {
    companyName: s.companyName ?? '',
    registrationNumber: s.registrationNumber ?? '',
    registrationCountry: s.registrationCountry ?? '',
    registeredAddress: s.registeredAddress ?? '',
    regulator: s.regulator ?? '',
    licenceNumber: s.licenceNumber ?? '',
    registerUrl: s.registerUrl ?? '',
    supportEmail: s.supportEmail ?? '',
    supportPhone: s.supportPhone ?? '',
    supportHours: localized(s.supportHours),
    riskPercent: s.riskPercent ?? '',
    riskAsOf: s.riskAsOf ?? '',
    leaders: s.leaders.map((leader) => ({
      key: newKey(),
      name: leader.name,
      role: localized(leader.role),
      photoUrl: leader.photoUrl ?? '',
    })),
    partners: s.partners.map((partner) => ({ key: newKey(), name: partner.name, url: partner.url ?? '' })),
    appStoreUrl: s.appStoreUrl ?? '',
    googlePlayUrl: s.googlePlayUrl ?? '',
    social: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [
        network,
        s.social.find((item) => item.network === network)?.url ?? '',
      ]),
    ) as Record<SocialNetwork, string>,
  };
}

/** The form as the contract's input: blank fields are left out (not set is not shown). */
function inputOf(form: Form): unknown {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const texts = (value: Localized) =>
    Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v.trim() !== '')
        .map(([k, v]) => [k, v.trim()]),
    );
  const hours = texts(form.supportHours);
  return {
    companyName: text(form.companyName),
    registrationNumber: text(form.registrationNumber),
    registrationCountry: text(form.registrationCountry),
    registeredAddress: text(form.registeredAddress),
    regulator: text(form.regulator),
    licenceNumber: text(form.licenceNumber),
    registerUrl: text(form.registerUrl),
    supportEmail: text(form.supportEmail),
    supportPhone: text(form.supportPhone),
    supportHours: Object.keys(hours).length > 0 ? hours : undefined,
    riskPercent: text(form.riskPercent),
    riskAsOf: text(form.riskAsOf),
    leaders: form.leaders.map((leader) => ({
      name: leader.name.trim(),
      role: texts(leader.role),
      photoUrl: text(leader.photoUrl),
    })),
    partners: form.partners.map((partner) => ({ name: partner.name.trim(), url: text(partner.url) })),
    appStoreUrl: text(form.appStoreUrl),
    googlePlayUrl: text(form.googlePlayUrl),
    social: SOCIAL_NETWORKS.filter((network) => form.social[network].trim() !== '').map((network) => ({
      network,
      url: form.social[network].trim(),
    })),
  };
}

/** The contract's own check messages, as the screen's error words. */
const CUSTOM: Record<string, keyof OperatorText['errors']> = {
  'company name first': 'companyFirst',
  'regulator first': 'regulatorFirst',
  'percent and date together': 'riskTogether',
  'https address': 'url',
  'path on this site': 'path',
  email: 'email',
  phone: 'phone',
  country: 'country',
  percent: 'percent',
  date: 'date',
  'plain text': 'text',
  'at least one language': 'required',
};

function messageOf(issue: { code: string; message?: string }, text: OperatorText): string {
  if (issue.code === 'too_small') return text.errors.required;
  if (issue.code === 'too_big') return text.errors.tooLong;
  const known = issue.message ? CUSTOM[issue.message] : undefined;
  return text.errors[known ?? 'invalid'];
}

/** The first error of each field, worded for staff. */
function errorsOf(
  issues: readonly { path: string; code: string; message?: string }[],
  text: OperatorText,
): Errors {
  const errors: Errors = {};
  for (const issue of issues) errors[issue.path] ??= messageOf(issue, text);
  return errors;
}

/** Where a network's link sits in the submitted social list (for its error), or null when blank. */
export function inputIndex(form: Form, network: SocialNetwork): number | null {
  const filled = SOCIAL_NETWORKS.filter((n) => form.social[n].trim() !== '');
  const index = filled.indexOf(network);
  return index === -1 ? null : index;
}

/** The form checked by the contract: the document to save, or the errors of its fields. */
export function checkForm(
  form: Form,
  text: OperatorText,
): { ok: true; body: ReturnType<typeof operatorSettings.parse> } | { ok: false; errors: Errors } {
  const parsed = operatorSettings.safeParse(inputOf(form));
  if (parsed.success) return { ok: true, body: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    code: issue.code,
    message: issue.message,
  }));
  return { ok: false, errors: errorsOf(issues, text) };
}

/** The field errors of a refusal of the server (10026 with `[{ path, issue }]`), else null. */
export function serverErrors(error: unknown, text: OperatorText): Errors | null {
  if (!(error instanceof StaffApiError && error.code === 10026 && Array.isArray(error.data))) return null;
  const issues = (error.data as { path: string; issue: string }[]).map((d) => ({
    path: d.path,
    code: d.issue,
  }));
  return errorsOf(issues, text);
}
