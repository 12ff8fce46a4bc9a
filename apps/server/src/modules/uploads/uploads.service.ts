import { randomBytes } from 'node:crypto';
import {
  acceptsDocuments,
  Code,
  isUploadPurpose,
  type StaffRole,
  staffOnlyPurpose,
  UPLOAD_PURPOSES,
  type UploadedFile,
  type UploadPurpose,
  type UploadPurposeRule,
} from '@swx/contract';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { RateLimiter } from '../../platform/ratelimit.ts';
import type { FileStore, StoredFile } from '../../platform/storage.ts';
import { type CheckedImage, checkImage, ImageRefusal, isPdf } from './uploads.images.ts';
import type { CheckedPdf } from './uploads.pdf.ts';
import {
  deleteUnusedBeyond,
  findUpload,
  findUploads,
  insertUpload,
  ownedBy,
  takeUploads,
  type UploadOwner,
  type UploadRow,
} from './uploads.repository.ts';

export type { UploadOwner };

/** Decoding and re-encoding costs CPU: a customer may upload 30 files an hour. */
export const UPLOAD_LIMIT = { limit: 30, windowMs: 3600_000 };
/** Unused uploads kept per customer and purpose; an older one goes when a newer one comes. */
export const UNUSED_KEPT = 3;

/** Does the purpose let staff of this role read its files? (A purpose no longer declared: none.) */
export function staffMayRead(purpose: string, role: StaffRole): boolean {
  return isUploadPurpose(purpose) && UPLOAD_PURPOSES[purpose].staffRoles.includes(role);
}

/** A feature's reference to an upload: the field that named it, the id, the purpose it takes. */
export type UploadReference = { path: string; id: string; purpose: UploadPurpose };

/**
 * Uploads for every feature (spec §5, DESIGN §3 Files). `store` checks a file by content for its
 * purpose (the route has already refused anything over the purpose's limit while reading it),
 * re-encodes it without metadata, keeps it in private storage and records the row; a feature
 * takes the ids it is given with `takeInTx`, in its own transaction; files are read back only by
 * their owner or by staff of a role the purpose names.
 */
export class UploadsService {
  private readonly db: Database;
  private readonly storage: FileStore;
  private readonly limiter: RateLimiter | undefined;
  private readonly publicReaders = new Map<UploadPurpose, (upload: UploadRow) => Promise<boolean>>();

  constructor(deps: { db: Database; storage: FileStore; rateLimiter?: RateLimiter }) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.limiter = deps.rateLimiter;
  }

  /**
   * Reads, checks, re-encodes and stores one file of a customer. `read` gets the purpose's limit
   * and answers the bytes (the route streams the request with that limit and throws 10034 beyond
   * it). Over the limit: 10034 with `{maxBytes}`; refused content: 10026 with
   * `[{path: 'file', issue}]`; too many uploads: 10027. Nothing is stored then.
   */
  async store(
    owner: UploadOwner,
    purpose: UploadPurpose,
    read: (maxBytes: number) => Promise<Uint8Array>,
  ): Promise<UploadedFile> {
    const { maxBytes } = UPLOAD_PURPOSES[purpose];
    // A purpose only staff upload (content images) is refused to anyone else, before a byte is read.
    if (staffOnlyPurpose(purpose) && !(typeof owner === 'string' && owner.startsWith('staff:')))
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'purpose', issue: 'purpose' }]);
    const verdict = await this.limiter?.hit(`upload:${owner}`, UPLOAD_LIMIT.limit, UPLOAD_LIMIT.windowMs);
    if (verdict && !verdict.allowed)
      throw new ApiError(Code.TOO_MANY_REQUESTS, {
        retryAfterSeconds: Math.ceil(verdict.retryAfterMs / 1000),
      });
    const bytes = await read(maxBytes);
    if (bytes.byteLength > maxBytes) throw new ApiError(Code.FILE_TOO_LARGE, { maxBytes });
    let image: CheckedImage | CheckedPdf;
    try {
      image =
        acceptsDocuments(purpose) && isPdf(bytes)
          ? // The PDF check (pdf-lib) is loaded when the first PDF arrives, not at start.
            await (await import('./uploads.pdf.ts')).checkPdf(bytes, maxBytes)
          : await checkImage(bytes, maxBytes);
    } catch (error) {
      if (!(error instanceof ImageRefusal)) throw error;
      if (error.issue === 'size') throw new ApiError(Code.FILE_TOO_LARGE, { maxBytes });
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'file', issue: error.issue }]);
    }
    const row = {
      id: randomBytes(12).toString('hex'),
      owner,
      purpose,
      contentType: image.contentType,
      size: image.bytes.length,
      width: image.width,
      height: image.height,
      storageKey: await this.storage.put(image.bytes, image.contentType),
    };
    let dropped: string[];
    try {
      dropped = await this.db.transaction(async (tx) => {
        await insertUpload(tx, row);
        const kept = (UPLOAD_PURPOSES[purpose] as UploadPurposeRule).unusedKept ?? UNUSED_KEPT;
        return deleteUnusedBeyond(tx, owner, purpose, kept);
      });
    } catch (error) {
      await this.storage.delete(row.storageKey);
      throw error;
    }
    await Promise.all(dropped.map((key) => this.storage.delete(key)));
    return {
      id: row.id,
      purpose,
      contentType: row.contentType,
      size: row.size,
      width: row.width,
      height: row.height,
    };
  }

  /**
   * Takes the uploads a feature was given, in the feature's transaction, for `usedFor` (e.g.
   * `kyc:12`). An id that is not the caller's (or does not exist): 10028, whatever else is wrong.
   * An upload of another purpose, or one already taken: 10026 naming each field. Answers the rows.
   */
  async takeInTx(
    tx: Queryable,
    owner: UploadOwner,
    references: UploadReference[],
    usedFor: string,
  ): Promise<UploadRow[]> {
    const rows = new Map(
      (
        await findUploads(
          tx,
          references.map((r) => r.id),
        )
      ).map((r) => [r.id, r]),
    );
    if (references.some((r) => !ownedBy(rows.get(r.id), owner))) throw new ApiError(Code.NOT_FOUND);
    const issues: { path: string; issue: 'purpose' | 'used' }[] = [];
    for (const reference of references) {
      const row = rows.get(reference.id) as UploadRow;
      if (row.purpose !== reference.purpose) issues.push({ path: reference.path, issue: 'purpose' });
      else if (row.usedFor !== null) issues.push({ path: reference.path, issue: 'used' });
    }
    if (issues.length > 0) throw new ApiError(Code.INVALID_INPUT, issues);
    const taken = new Set(await takeUploads(tx, owner, references, usedFor));
    // Another request took one between the read and the update.
    const lost = references.filter((r) => !taken.has(r.id));
    if (lost.length > 0)
      throw new ApiError(
        Code.INVALID_INPUT,
        lost.map((r) => ({ path: r.path, issue: 'used' })),
      );
    return references.map((r) => rows.get(r.id) as UploadRow);
  }

  /** A file for its owner only: any other id finds nothing. */
  async fileForOwner(owner: UploadOwner, id: string): Promise<StoredFile | null> {
    const row = (await findUpload(this.db, id)) ?? undefined;
    if (!row || !ownedBy(row, owner)) return null;
    return this.storage.get(row.storageKey);
  }

  /**
   * A file taken by `usedFor` (e.g. `support:12`), for a module that has checked who may read
   * what it took (the chat: the conversation's participants); any other id finds nothing.
   */
  async fileTakenBy(usedFor: string, id: string): Promise<(StoredFile & { upload: UploadRow }) | null> {
    const row = await findUpload(this.db, id);
    if (!row || row.usedFor !== usedFor) return null;
    const file = await this.storage.get(row.storageKey);
    return file ? { ...file, upload: row } : null;
  }

  /**
   * Lets the module that takes a purpose's files serve one to anyone, when it says the file is
   * public (content: an image of a published text). Registered once per purpose, at start.
   */
  servePublicly(purpose: UploadPurpose, isPublic: (upload: UploadRow) => Promise<boolean>): void {
    if (this.publicReaders.has(purpose)) throw new Error(`uploads: ${purpose} is served publicly already`);
    this.publicReaders.set(purpose, isPublic);
  }

  /** A file its purpose's module calls public, for anyone; any other id finds nothing. */
  async filePublic(id: string): Promise<StoredFile | null> {
    const row = await findUpload(this.db, id);
    const isPublic = row ? this.publicReaders.get(row.purpose) : undefined;
    if (!row || !isPublic || !(await isPublic(row))) return null;
    return this.storage.get(row.storageKey);
  }

  /** A file for staff whose role the upload's purpose names; anyone else finds nothing. */
  async fileForStaff(role: StaffRole, id: string): Promise<(StoredFile & { upload: UploadRow }) | null> {
    const row = await findUpload(this.db, id);
    if (!row || !staffMayRead(row.purpose, role)) return null;
    const file = await this.storage.get(row.storageKey);
    return file ? { ...file, upload: row } : null;
  }
}
