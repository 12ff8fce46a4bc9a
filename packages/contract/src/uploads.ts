import { z } from 'zod/mini';
import { STAFF_DUTIES } from './roles.ts';
import type { StaffRole } from './staffBase.ts';

/**
 * Uploads (spec §5 "Uploads", §9 limits; DESIGN §3 Files). A customer uploads one file for one
 * purpose; the server reads it as a stream up to the purpose's limit (a file over it is refused
 * with 10034 and never stored), checks it by its bytes (JPG, JPEG 2000, PNG), re-encodes it so no
 * metadata survives, keeps it in private storage and answers its random public id. A feature then
 * takes the id (its owner's own, unused, of the purpose it expects) and marks it used. The file
 * is served only to its owner and to staff of the roles the purpose names.
 *
 * To accept a new kind of upload, add a purpose here: nothing else declares one.
 */
export type UploadPurposeRule = {
  /** The largest file accepted, in bytes (spec §5: 2 MB, 5 MB for a fund payment proof, 50 MB). */
  maxBytes: number;
  /** The staff roles that may see files of this purpose (the owner always may). */
  staffRoles: readonly StaffRole[];
  /** PDF documents are accepted beside pictures (rebuilt page by page, without active content). */
  documents?: boolean;
  /** Only staff upload files of this purpose (the customers' upload call refuses it). */
  staffOnly?: boolean;
  /** Unused files kept per owner before the oldest goes (default 3). */
  unusedKept?: number;
};

const MB = 1024 * 1024;
/** Who reads identity documents: the roles of the KYC review. */
const KYC_ROLES: readonly StaffRole[] = STAFF_DUTIES.readKyc.roles;
/** Who checks payments: finance, and admin. */
const PAYMENT_ROLES: readonly StaffRole[] = STAFF_DUTIES.money.roles;
/** Who reads loan applications: credit decisions and their compliance check. */
const LOAN_ROLES: readonly StaffRole[] = ['admin', 'finance', 'compliance'];
/** Who reads the chat's attachments: its agents. */
const CHAT_ROLES: readonly StaffRole[] = STAFF_DUTIES.supportChat.roles;

/**
 * Every purpose with its limit and readers. Identity photos take the spec's 2 MB, the fund payment
 * proof its 5 MB; the spec gives 50 MB to "another" screen without naming it, and the other proofs
 * (deposit, repayment) are the screens left, so they take it.
 */
export const UPLOAD_PURPOSES = {
  kyc_front: { maxBytes: 2 * MB, staffRoles: KYC_ROLES },
  kyc_back: { maxBytes: 2 * MB, staffRoles: KYC_ROLES },
  kyc_in_hand: { maxBytes: 2 * MB, staffRoles: KYC_ROLES },
  fund_proof: { maxBytes: 5 * MB, staffRoles: PAYMENT_ROLES },
  deposit_proof: { maxBytes: 50 * MB, staffRoles: PAYMENT_ROLES },
  /** A loan repayment's transfer proof. */
  loan_repayment_proof: { maxBytes: 50 * MB, staffRoles: PAYMENT_ROLES },
  /** A loan agreement's signature, drawn on the screen (PNG); read by the staff who read applications. */
  loan_signature: { maxBytes: 2 * MB, staffRoles: LOAN_ROLES },
  /** A picture or a PDF sent in the service chat; read by the chat's agents and the conversation's owner. */
  support_attachment: { maxBytes: 5 * MB, staffRoles: CHAT_ROLES, documents: true },
  /**
   * A picture in a help article or a content page, uploaded by staff in the editor; served to
   * anyone once the text that shows it is published (modules/content), else to the staff who read content.
   */
  // An editor may add several images to a text before saving its draft: 20 wait unused.
  content_image: {
    maxBytes: 2 * MB,
    staffRoles: STAFF_DUTIES.readContent.roles,
    staffOnly: true,
    unusedKept: 20,
  },
  /**
   * A charity NFT's artwork, uploaded by staff making a drop; served to anyone once the drop is
   * minted (modules/nft), else to the staff who read drops.
   */
  nft_artwork: {
    maxBytes: 5 * MB,
    staffRoles: PAYMENT_ROLES,
    staffOnly: true,
    unusedKept: 20,
  },
} as const satisfies Record<string, UploadPurposeRule>;

export type UploadPurpose = keyof typeof UPLOAD_PURPOSES;
export const UPLOAD_PURPOSE_NAMES = Object.keys(UPLOAD_PURPOSES) as UploadPurpose[];

export function isUploadPurpose(value: string): value is UploadPurpose {
  return Object.hasOwn(UPLOAD_PURPOSES, value);
}

/** The image types accepted, by their bytes; a browser's file picker is offered these. */
export const UPLOAD_ACCEPT = 'image/jpeg,image/png,image/jp2,.jpg,.jpeg,.png,.jp2,.j2k,.jpf';
/** What a purpose with `documents` also accepts. */
export const UPLOAD_ACCEPT_DOCUMENTS = `${UPLOAD_ACCEPT},application/pdf,.pdf`;

/** Does this purpose accept PDF documents beside pictures? */
export const acceptsDocuments = (purpose: UploadPurpose): boolean =>
  (UPLOAD_PURPOSES[purpose] as UploadPurposeRule).documents === true;

/** Is this purpose staff's only (no customer or visitor uploads it)? */
export const staffOnlyPurpose = (purpose: UploadPurpose): boolean =>
  (UPLOAD_PURPOSES[purpose] as UploadPurposeRule).staffOnly === true;

/**
 * Why a file's content was refused (10026 with `[{path: 'file', issue}]`): type: not JPG, JPEG
 * 2000 or PNG by its bytes; polyglot: something else is hidden in or appended to the image;
 * corrupt: it does not decode; dimensions: too small or too large. A file over the purpose's limit
 * is 10034 instead, with `{maxBytes}`.
 */
export const UPLOAD_ISSUES = ['type', 'polyglot', 'corrupt', 'dimensions'] as const;
export type UploadIssue = (typeof UPLOAD_ISSUES)[number];

/** Why a feature refused an upload id it was given: not of the purpose it takes, or used already. */
export const UPLOAD_REFERENCE_ISSUES = ['purpose', 'used'] as const;

/** The random public id of an upload: 24 hex digits (the storage key never leaves the server). */
export const uploadId = z.string().check(z.regex(/^[a-f0-9]{24}$/));
export const uploadIdParams = z.object({ id: uploadId });
export const uploadPurposeParams = z.object({ purpose: z.enum(UPLOAD_PURPOSE_NAMES) });

/** A stored upload, as its owner gets it back. */
export const uploadedFile = z.object({
  id: uploadId,
  purpose: z.enum(UPLOAD_PURPOSE_NAMES),
  /** After re-encoding: JPEG stays JPEG, PNG stays PNG, JPEG 2000 becomes PNG; a PDF is rebuilt. */
  contentType: z.enum(['image/jpeg', 'image/png', 'application/pdf']),
  /** The stored (re-encoded) file's bytes. */
  size: z.int(),
  /** In pixels; a PDF's first page in points. */
  width: z.int(),
  height: z.int(),
});
export type UploadedFile = z.infer<typeof uploadedFile>;

/** The guarded file route: its owner (customer token) or staff of a role the purpose names. */
export const UPLOAD_FILE_PATH = '/swx/files/:id';
export const uploadFileUrl = (id: string) => UPLOAD_FILE_PATH.replace(':id', encodeURIComponent(id));
/** The multipart part that carries the file. */
export const UPLOAD_FIELD = 'file';
