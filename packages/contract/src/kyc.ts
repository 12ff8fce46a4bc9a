import { z } from 'zod/mini';
import { type UploadPurpose, uploadId } from './uploads.ts';

/**
 * Identity verification (KYC, spec §3 fields, §4 states, §5 uploads, §9 limits). A customer uploads
 * three photos (the upload call, purposes kyc_*), then sends the fields with the photos' upload
 * ids; staff of the compliance role approve or reject with a reason; a rejected customer may
 * submit again. Photos are checked by their content when uploaded.
 */

/** Phone area codes offered (spec §3). */
export const PHONE_CODES = [
  '+1',
  '+31',
  '+32',
  '+33',
  '+34',
  '+39',
  '+41',
  '+43',
  '+44',
  '+45',
  '+46',
  '+47',
  '+48',
  '+49',
  '+55',
  '+60',
  '+61',
  '+64',
  '+65',
  '+66',
  '+81',
  '+91',
  '+351',
  '+352',
  '+353',
  '+358',
  '+852',
  '+886',
] as const;

/**
 * The area code of each country whose code is offered (ITU-T E.164 assignments): the KYC form
 * picks it when the country is chosen. Countries sharing a code (the +1 plan, the Crown
 * dependencies, Åland, Svalbard, Christmas and Cocos Islands, Vatican City) are listed too.
 */
const COUNTRY_PHONE_CODES: Readonly<Record<string, (typeof PHONE_CODES)[number]>> = {
  US: '+1',
  CA: '+1',
  AG: '+1',
  AI: '+1',
  AS: '+1',
  BB: '+1',
  BM: '+1',
  BS: '+1',
  DM: '+1',
  DO: '+1',
  GD: '+1',
  GU: '+1',
  JM: '+1',
  KN: '+1',
  KY: '+1',
  LC: '+1',
  MP: '+1',
  MS: '+1',
  PR: '+1',
  SX: '+1',
  TC: '+1',
  TT: '+1',
  VC: '+1',
  VG: '+1',
  VI: '+1',
  NL: '+31',
  BE: '+32',
  FR: '+33',
  ES: '+34',
  IT: '+39',
  VA: '+39',
  CH: '+41',
  AT: '+43',
  GB: '+44',
  GG: '+44',
  JE: '+44',
  IM: '+44',
  DK: '+45',
  SE: '+46',
  NO: '+47',
  SJ: '+47',
  PL: '+48',
  DE: '+49',
  BR: '+55',
  MY: '+60',
  AU: '+61',
  CX: '+61',
  CC: '+61',
  NZ: '+64',
  SG: '+65',
  TH: '+66',
  JP: '+81',
  IN: '+91',
  PT: '+351',
  LU: '+352',
  IE: '+353',
  FI: '+358',
  AX: '+358',
  HK: '+852',
  TW: '+886',
};

/** The area code of a country (ISO 3166-1 alpha-2), or null when its code is not offered. */
export function phoneCodeOfCountry(country: string): (typeof PHONE_CODES)[number] | null {
  return Object.hasOwn(COUNTRY_PHONE_CODES, country) ? (COUNTRY_PHONE_CODES[country] ?? null) : null;
}

/** ISO 3166-1 alpha-2 codes; screens name them with Intl.DisplayNames in the reader's language. */
export const COUNTRIES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

export const SEXES = ['female', 'male'] as const;
export const DOCUMENT_TYPES = ['idCard', 'driverLicence', 'passport'] as const;
export const PHOTO_SIDES = ['front', 'back', 'inHand'] as const;
export type PhotoSide = (typeof PHOTO_SIDES)[number];
export const KYC_STATES = ['none', 'pending', 'verified', 'failed'] as const;
export type KycState = (typeof KYC_STATES)[number];

/** The upload purpose of each photo. */
export const PHOTO_PURPOSES = {
  front: 'kyc_front',
  back: 'kyc_back',
  inHand: 'kyc_in_hand',
} as const satisfies Record<PhotoSide, UploadPurpose>;
/** The review takes at most 48 hours (spec §4, §9). */
export const KYC_REVIEW_HOURS = 48;

const text = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max));

export const identificationBody = z.object({
  firstName: text(1, 100),
  lastName: text(1, 100),
  /** YYYY-MM-DD; the customer must be 18 or older. */
  birthdate: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  sex: z.enum(SEXES),
  country: z.string().check(z.regex(/^[A-Z]{2}$/)),
  address: text(5, 300),
  phoneCode: z.enum(PHONE_CODES),
  phone: z.string().check(z.trim(), z.regex(/^[0-9]{4,15}$/)),
  documentType: z.enum(DOCUMENT_TYPES),
  /**
   * The upload id of each photo: the caller's own, not used yet, of the side's purpose
   * (PHOTO_PURPOSES). Another customer's id (or none) is 10028; a wrong purpose or a used one is
   * 10026 with `[{path: 'photos.<side>', issue: 'purpose' | 'used'}]`.
   */
  photos: z.object({ front: uploadId, back: uploadId, inHand: uploadId }),
});
export type IdentificationBody = z.infer<typeof identificationBody>;

export const kycPhotoRef = z.object({ id: z.string(), side: z.enum(PHOTO_SIDES) });

/** What was submitted (shown back to its owner and to staff). */
export const kycDetails = z.object({
  firstName: z.string(),
  lastName: z.string(),
  birthdate: z.string(),
  sex: z.enum(SEXES),
  country: z.string(),
  address: z.string(),
  phoneCode: z.string(),
  phone: z.string(),
  documentType: z.enum(DOCUMENT_TYPES),
  photos: z.array(kycPhotoRef),
});

/** My verification: its state (spec §4), the review's times, the reason of a failure. */
export const identificationStatus = z.object({
  state: z.enum(KYC_STATES),
  /** A submission is allowed: nothing sent yet, or the last one failed. */
  canSubmit: z.boolean(),
  submittedAt: z.nullable(z.string()),
  /** When the result is due: 48 hours after submission. */
  dueAt: z.nullable(z.string()),
  reviewedAt: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  details: z.nullable(kycDetails),
});
export type IdentificationStatus = z.infer<typeof identificationStatus>;

export const kycPhotoParams = z.object({ id: uploadId });

/**
 * The credit score is computed, never typed in: a base, plus the points of each rule that applies.
 * Each rule is listed with its points and whether it applies to this customer.
 */
export const CREDIT_SCORE_MAX = 100;
export const creditScore = z.object({
  score: z.int(),
  max: z.int(),
  rules: z.array(z.object({ key: z.string(), points: z.int(), applied: z.boolean() })),
});
export type CreditScore = z.infer<typeof creditScore>;
