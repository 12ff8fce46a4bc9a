import type { Queryable } from '../../platform/db.ts';

export type NoticeRow = {
  id: number;
  kind: string;
  /** The parameters to render the text in any language; null for notices from before they were kept. */
  params: Record<string, string> | null;
  noticeContent: string;
  readState: 0 | 1;
  createdAt: string;
};

export async function insertNotice(
  db: Queryable,
  notice: { userId: number; kind: string; params: Record<string, string>; content: string; at: string },
): Promise<number> {
  const rows = await db.query<{ id: string }>(
    'INSERT INTO notices (user_id, kind, params, notice_content, created_at) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING id',
    [notice.userId, notice.kind, JSON.stringify(notice.params), notice.content, notice.at],
  );
  return Number(rows[0]?.id);
}

/** Many notices in one statement (a block of deposits credited in one transaction). */
export async function insertNotices(
  db: Queryable,
  notices: readonly { userId: number; kind: string; params: Record<string, string>; content: string }[],
  at: string,
): Promise<void> {
  if (notices.length === 0) return;
  await db.query(
    `INSERT INTO notices (user_id, kind, params, notice_content, created_at)
     SELECT u, k, p::jsonb, c, $5::timestamptz FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS n(u, k, p, c)`,
    [
      notices.map((n) => n.userId),
      notices.map((n) => n.kind),
      notices.map((n) => JSON.stringify(n.params)),
      notices.map((n) => n.content),
      at,
    ],
  );
}

export async function noticesOf(
  db: Queryable,
  userId: number,
  filter: { readState?: 0 | 1; limit: number },
): Promise<NoticeRow[]> {
  const rows = await db.query<{
    id: string;
    kind: string;
    params: Record<string, string> | string | null;
    notice_content: string;
    read_state: number;
    created_at: Date;
  }>(
    `SELECT id, kind, params, notice_content, read_state, created_at FROM notices
     WHERE user_id = $1 AND ($2::smallint IS NULL OR read_state = $2)
     ORDER BY id DESC LIMIT $3`,
    [userId, filter.readState ?? null, filter.limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    params: typeof r.params === 'string' ? (JSON.parse(r.params) as Record<string, string>) : r.params,
    noticeContent: r.notice_content,
    readState: r.read_state === 1 ? 1 : 0,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** Marks one of the user's own notices read; another user's id matches nothing. */
export async function markRead(db: Queryable, userId: number, noticeId: number): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    'UPDATE notices SET read_state = 1, read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id',
    [noticeId, userId],
  );
  return rows.length > 0;
}
