import type { PhotoSide } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

export type SubmissionStatus = 'pending' | 'verified' | 'failed';

export type SubmissionRow = {
  id: number;
  userId: number;
  status: SubmissionStatus;
  firstName: string;
  lastName: string;
  birthdate: string;
  sex: 'female' | 'male';
  country: string;
  address: string;
  phoneCode: string;
  phone: string;
  documentType: 'idCard' | 'driverLicence' | 'passport';
  submittedAt: string;
  dueAt: string;
  reviewedAt: string | null;
  reviewedBy: number | null;
  reason: string | null;
};

type RawSubmission = {
  id: string;
  user_id: string;
  status: SubmissionStatus;
  first_name: string;
  last_name: string;
  birthdate: string;
  sex: 'female' | 'male';
  country: string;
  address: string;
  phone_code: string;
  phone_number: string;
  document_type: 'idCard' | 'driverLicence' | 'passport';
  submitted_at: Date | string;
  due_at: Date | string;
  reviewed_at: Date | string | null;
  reviewed_by: string | null;
  reason: string | null;
};
const COLUMNS = `id, user_id, status, first_name, last_name, to_char(birthdate, 'YYYY-MM-DD') AS birthdate, sex,
  country, address, phone_code, phone_number, document_type, submitted_at, due_at, reviewed_at, reviewed_by, reason`;
const iso = (v: Date | string) => new Date(v).toISOString();
const toSubmission = (r: RawSubmission): SubmissionRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  status: r.status,
  firstName: r.first_name,
  lastName: r.last_name,
  birthdate: r.birthdate,
  sex: r.sex,
  country: r.country,
  address: r.address,
  phoneCode: r.phone_code,
  phone: r.phone_number,
  documentType: r.document_type,
  submittedAt: iso(r.submitted_at),
  dueAt: iso(r.due_at),
  reviewedAt: r.reviewed_at === null ? null : iso(r.reviewed_at),
  reviewedBy: r.reviewed_by === null ? null : Number(r.reviewed_by),
  reason: r.reason,
});

/** A submission's photo: which upload (uploads module) is which side. */
export type PhotoRow = { uploadId: string; side: PhotoSide };

export async function insertSubmission(
  db: Queryable,
  s: Omit<
    SubmissionRow,
    'id' | 'status' | 'submittedAt' | 'dueAt' | 'reviewedAt' | 'reviewedBy' | 'reason'
  > & {
    reviewHours: number;
  },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO kyc_submissions (user_id, first_name, last_name, birthdate, sex, country, address, phone_code,
       phone_number, document_type, due_at)
     VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10, now() + $11 * interval '1 hour') RETURNING id`,
    [
      s.userId,
      s.firstName,
      s.lastName,
      s.birthdate,
      s.sex,
      s.country,
      s.address,
      s.phoneCode,
      s.phone,
      s.documentType,
      s.reviewHours,
    ],
  );
  return Number(rows[0]?.id);
}

export async function insertPhotos(db: Queryable, submissionId: number, photos: PhotoRow[]): Promise<void> {
  for (const p of photos)
    await db.query('INSERT INTO kyc_photos (upload_id, submission_id, side) VALUES ($1, $2, $3)', [
      p.uploadId,
      submissionId,
      p.side,
    ]);
}

/** A user's newest submission. */
export async function latestSubmission(db: Queryable, userId: number): Promise<SubmissionRow | null> {
  const rows = await db.query<RawSubmission>(
    `SELECT ${COLUMNS} FROM kyc_submissions WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
    [userId],
  );
  return rows[0] ? toSubmission(rows[0]) : null;
}

export async function findSubmission(db: Queryable, id: number): Promise<SubmissionRow | null> {
  const rows = await db.query<RawSubmission>(`SELECT ${COLUMNS} FROM kyc_submissions WHERE id = $1`, [id]);
  return rows[0] ? toSubmission(rows[0]) : null;
}

/** Pending submissions, oldest first (by id, for keyset paging), after the id `after`. */
export async function pendingSubmissions(
  db: Queryable,
  after: number | null,
  limit: number,
): Promise<SubmissionRow[]> {
  const rows = await db.query<RawSubmission>(
    `SELECT ${COLUMNS} FROM kyc_submissions WHERE status = 'pending' AND ($1::bigint IS NULL OR id > $1)
     ORDER BY id LIMIT $2`,
    [after, limit],
  );
  return rows.map(toSubmission);
}

/** The state of each user's newest submission (users with none are absent). */
export async function latestStates(db: Queryable, userIds: number[]): Promise<Map<number, SubmissionStatus>> {
  const rows = await db.query<{ user_id: string; status: SubmissionStatus }>(
    `SELECT DISTINCT ON (user_id) user_id, status FROM kyc_submissions
     WHERE user_id = ANY($1::bigint[]) ORDER BY user_id, id DESC`,
    [userIds],
  );
  return new Map(rows.map((r) => [Number(r.user_id), r.status]));
}

/** Decides a pending submission; null when it is not pending (or does not exist). */
export async function decideSubmission(
  db: Queryable,
  id: number,
  decision: { status: 'verified' | 'failed'; staffId: number; reason: string | null },
): Promise<SubmissionRow | null> {
  const rows = await db.query<RawSubmission>(
    `UPDATE kyc_submissions SET status = $2, reviewed_at = now(), reviewed_by = $3, reason = $4
     WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
    [id, decision.status, decision.staffId, decision.reason],
  );
  return rows[0] ? toSubmission(rows[0]) : null;
}

export async function photosOf(db: Queryable, submissionId: number): Promise<PhotoRow[]> {
  const rows = await db.query<{ upload_id: string; side: PhotoSide }>(
    `SELECT upload_id, side FROM kyc_photos WHERE submission_id = $1
     ORDER BY CASE side WHEN 'front' THEN 1 WHEN 'back' THEN 2 ELSE 3 END`,
    [submissionId],
  );
  return rows.map((r) => ({ uploadId: r.upload_id, side: r.side }));
}

/** A photo by its upload id, with the submission it belongs to. */
export async function findPhoto(
  db: Queryable,
  uploadId: string,
): Promise<(PhotoRow & { submissionId: number }) | null> {
  const rows = await db.query<{ upload_id: string; side: PhotoSide; submission_id: string }>(
    'SELECT upload_id, side, submission_id FROM kyc_photos WHERE upload_id = $1',
    [uploadId],
  );
  const r = rows[0];
  return r ? { uploadId: r.upload_id, side: r.side, submissionId: Number(r.submission_id) } : null;
}
