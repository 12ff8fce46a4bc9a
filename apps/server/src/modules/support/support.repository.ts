import type { SupportState } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';

/** The chat's SQL (tables in migration 0046): visitors, agents, conversations, transcript, canned replies. */

export type ConversationRow = {
  id: number;
  userId: number | null;
  visitorId: number | null;
  email: string | null;
  language: string;
  state: SupportState;
  agentId: number | null;
  byMail: boolean;
  waitingSince: string;
  createdAt: string;
  updatedAt: string;
  rating: number | null;
  customerDelivered: number;
  customerRead: number;
  agentDelivered: number;
  agentRead: number;
};

export type MessageRow = {
  id: number;
  conversationId: number;
  author: 'customer' | 'agent' | 'system';
  staffId: number | null;
  private: boolean;
  body: string;
  attachment: string | null;
  event: 'assigned' | 'transferred' | 'resolved' | 'reopened' | 'rated' | null;
  at: string;
};

type Raw = Record<string, unknown>;
const iso = (value: unknown) => new Date(value as string).toISOString();
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const CONVERSATION = `id, user_id, visitor_id, email, language, state, agent_id, by_mail, waiting_since, created_at,
  updated_at, rating, customer_delivered, customer_read, agent_delivered, agent_read`;

function toConversation(r: Raw): ConversationRow {
  return {
    id: Number(r.id),
    userId: num(r.user_id),
    visitorId: num(r.visitor_id),
    email: (r.email as string | null) ?? null,
    language: r.language as string,
    state: r.state as SupportState,
    agentId: num(r.agent_id),
    byMail: Boolean(r.by_mail),
    waitingSince: iso(r.waiting_since),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    rating: num(r.rating),
    customerDelivered: Number(r.customer_delivered),
    customerRead: Number(r.customer_read),
    agentDelivered: Number(r.agent_delivered),
    agentRead: Number(r.agent_read),
  };
}

const MESSAGE = 'id, conversation_id, author, staff_id, private, body, attachment, event, created_at';

function toMessage(r: Raw): MessageRow {
  return {
    id: Number(r.id),
    conversationId: Number(r.conversation_id),
    author: r.author as MessageRow['author'],
    staffId: num(r.staff_id),
    private: Boolean(r.private),
    body: r.body as string,
    attachment: (r.attachment as string | null) ?? null,
    event: (r.event as MessageRow['event']) ?? null,
    at: iso(r.created_at),
  };
}

export async function insertVisitor(
  db: Queryable,
  email: string,
  tokenHash: string,
  at: Date,
): Promise<number> {
  const [row] = await db.query<{ id: string }>(
    'INSERT INTO support_visitors (email, token_hash, created_at) VALUES ($1, $2, $3) RETURNING id',
    [email, tokenHash, at],
  );
  return Number(row?.id);
}

export async function visitorByHash(
  db: Queryable,
  tokenHash: string,
): Promise<{ id: number; email: string } | null> {
  const [row] = await db.query<{ id: string; email: string }>(
    'SELECT id, email FROM support_visitors WHERE token_hash = $1',
    [tokenHash],
  );
  return row ? { id: Number(row.id), email: row.email } : null;
}

export type Owner = { userId: number } | { visitorId: number };
const ownerColumn = (owner: Owner) => ('userId' in owner ? 'user_id' : 'visitor_id');
const ownerId = (owner: Owner) => ('userId' in owner ? owner.userId : owner.visitorId);

/** The owner's latest conversation, whatever its state. */
export async function latestOf(db: Queryable, owner: Owner): Promise<ConversationRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${CONVERSATION} FROM support_conversations WHERE ${ownerColumn(owner)} = $1 ORDER BY id DESC LIMIT 1`,
    [ownerId(owner)],
  );
  return rows[0] ? toConversation(rows[0]) : null;
}

export async function insertConversation(
  db: Queryable,
  owner: Owner,
  values: { email: string | null; language: string; byMail: boolean; at: Date },
): Promise<ConversationRow> {
  const rows = await db.query<Raw>(
    `INSERT INTO support_conversations (${ownerColumn(owner)}, email, language, state, by_mail, waiting_since, created_at, updated_at)
     VALUES ($1, $2, $3, 'waiting', $4, $5, $5, $5) RETURNING ${CONVERSATION}`,
    [ownerId(owner), values.email, values.language, values.byMail, values.at],
  );
  return toConversation(rows[0] as Raw);
}

export async function conversationById(
  db: Queryable,
  id: number,
  lock = false,
): Promise<ConversationRow | null> {
  const rows = await db.query<Raw>(
    `SELECT ${CONVERSATION} FROM support_conversations WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toConversation(rows[0]) : null;
}

export async function insertMessage(
  db: Queryable,
  m: Omit<MessageRow, 'id' | 'at'> & { at: Date },
): Promise<MessageRow> {
  // One round trip: the line, and the conversation's last activity.
  const rows = await db.query<Raw>(
    `WITH touched AS (UPDATE support_conversations SET updated_at = $8 WHERE id = $1)
     INSERT INTO support_messages (conversation_id, author, staff_id, private, body, attachment, event, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${MESSAGE}`,
    [m.conversationId, m.author, m.staffId, m.private, m.body, m.attachment, m.event, m.at],
  );
  return toMessage(rows[0] as Raw);
}

/** What a line appended in one statement also answers of its conversation (for the mail of an answer). */
export type AppendedLine = MessageRow & Pick<ConversationRow, 'byMail' | 'email' | 'language'>;

/** A line for `appendLines`: a customer's (with its owner) or an agent's (reply or note). */
export type LineRequest = { conversationId: number; body: string } & (
  | { author: 'customer'; owner: Owner }
  | { author: 'agent'; staffId: number; anyAgent: boolean; private: boolean }
);

/**
 * The common lines in one statement, its own transaction, however many came at once (one round
 * trip and one commit for them all): a customer's while the conversation is theirs and not
 * resolved; an agent's reply or note while it is open and theirs (any open one for an admin).
 * The conversations are locked as the checked path locks them, so a resolution that commits first
 * is seen; lines are numbered in the order given. Answers each request's line, or null where the
 * condition failed: the caller then takes the checked path, which says why or reopens it.
 */
export async function appendLines(
  db: Queryable,
  lines: LineRequest[],
  at: Date,
): Promise<(AppendedLine | null)[]> {
  const column = <T>(pick: (line: LineRequest) => T) => lines.map(pick);
  const rows = await db.query<Raw>(
    `WITH req AS (
       SELECT * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::boolean[], $6::text[], $7::bigint[],
         $8::bigint[], $9::boolean[]) WITH ORDINALITY
         AS r(conversation_id, author, staff_id, private, body, user_id, visitor_id, any_agent, ord)
     ), c AS (
       SELECT id, state, user_id, visitor_id, agent_id, by_mail, email, language FROM support_conversations
       WHERE id IN (SELECT conversation_id FROM req) ORDER BY id FOR UPDATE
     ), ok AS (
       SELECT r.*, c.by_mail, c.email, c.language FROM req r JOIN c ON c.id = r.conversation_id
       WHERE CASE WHEN r.author = 'customer'
         THEN c.state <> 'resolved' AND (c.user_id = r.user_id OR c.visitor_id = r.visitor_id)
         ELSE c.state = 'open' AND (c.agent_id = r.staff_id OR r.any_agent) END
     ), line AS (
       INSERT INTO support_messages (conversation_id, author, staff_id, private, body, attachment, event, created_at)
       SELECT conversation_id, author, staff_id, private, body, NULL, NULL, $1 FROM ok ORDER BY ord
       RETURNING ${MESSAGE}
     ), touched AS (
       UPDATE support_conversations s SET updated_at = $1 WHERE s.id IN (SELECT conversation_id FROM line)
     )
     SELECT l.*, o.ord, o.by_mail, o.email, o.language
     FROM (SELECT line.*, row_number() OVER (ORDER BY id) AS k FROM line) l
     JOIN (SELECT ok.*, row_number() OVER (ORDER BY ord) AS k FROM ok) o ON o.k = l.k`,
    [
      at,
      column((l) => l.conversationId),
      column((l) => l.author),
      column((l) => (l.author === 'agent' ? l.staffId : null)),
      column((l) => (l.author === 'agent' ? l.private : false)),
      column((l) => l.body),
      column((l) => (l.author === 'customer' && 'userId' in l.owner ? l.owner.userId : null)),
      column((l) => (l.author === 'customer' && 'visitorId' in l.owner ? l.owner.visitorId : null)),
      column((l) => (l.author === 'agent' ? l.anyAgent : false)),
    ],
  );
  // The ids were drawn in the order of the requests, so the k-th line is the k-th request kept.
  const answers: (AppendedLine | null)[] = lines.map(() => null);
  for (const row of rows)
    answers[Number(row.ord) - 1] = {
      ...toMessage(row),
      byMail: Boolean(row.by_mail),
      email: (row.email as string | null) ?? null,
      language: row.language as string,
    };
  return answers;
}

export async function messagesOf(
  db: Queryable,
  conversationId: number,
  withPrivate: boolean,
): Promise<MessageRow[]> {
  const rows = await db.query<Raw>(
    `SELECT ${MESSAGE} FROM support_messages WHERE conversation_id = $1 ${withPrivate ? '' : 'AND NOT private'}
     ORDER BY id LIMIT 2000`,
    [conversationId],
  );
  return rows.map(toMessage);
}

/** The line that carries an attachment (an upload is taken once, so there is one): its conversation, and whether it is a note. */
export async function attachmentLine(
  db: Queryable,
  upload: string,
): Promise<{ conversationId: number; private: boolean } | null> {
  const [row] = await db.query<{ conversation_id: string; private: boolean }>(
    'SELECT conversation_id, private FROM support_messages WHERE attachment = $1 ORDER BY id LIMIT 1',
    [upload],
  );
  return row ? { conversationId: Number(row.conversation_id), private: row.private === true } : null;
}

/** Back in the queue (a customer wrote after resolution): no agent, waiting from now, unrated. */
export async function markWaiting(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query(
    `UPDATE support_conversations SET state = 'waiting', agent_id = NULL, waiting_since = $2, updated_at = $2,
       resolved_at = NULL, rating = NULL WHERE id = $1`,
    [id, at],
  );
}

/** An agent takes it (assignment, transfer, reopen). */
export async function setAgent(db: Queryable, id: number, agentId: number, at: Date): Promise<void> {
  await db.query(
    `UPDATE support_conversations SET state = 'open', agent_id = $2, updated_at = $3, resolved_at = NULL, rating = NULL
     WHERE id = $1`,
    [id, agentId, at],
  );
}

export async function markResolved(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query(
    "UPDATE support_conversations SET state = 'resolved', resolved_at = $2, updated_at = $2 WHERE id = $1",
    [id, at],
  );
}

/** The rating of a resolved conversation not rated yet; false otherwise. */
export async function setRating(db: Queryable, id: number, rating: number, at: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE support_conversations SET rating = $2, updated_at = $3
     WHERE id = $1 AND state = 'resolved' AND rating IS NULL RETURNING id`,
    [id, rating, at],
  );
  return rows.length === 1;
}

/** Moves one side's receipts forward (never back). `side`: whose receipt, the customer's or the agents'. */
export async function advanceReceipts(
  db: Queryable,
  id: number,
  side: 'customer' | 'agent',
  delivered: number,
  read: number,
): Promise<{ delivered: number; read: number } | null> {
  const rows = await db.query<{ d: string; r: string }>(
    `UPDATE support_conversations SET ${side}_delivered = GREATEST(${side}_delivered, $2, $3),
       ${side}_read = GREATEST(${side}_read, $3)
     WHERE id = $1 RETURNING ${side}_delivered AS d, ${side}_read AS r`,
    [id, delivered, read],
  );
  return rows[0] ? { delivered: Number(rows[0].d), read: Number(rows[0].r) } : null;
}

/** 1 for the oldest waiting; null when not waiting. */
export async function queuePlace(db: Queryable, id: number): Promise<number | null> {
  const [row] = await db.query<{ place: string | null }>(
    `SELECT CASE WHEN c.state = 'waiting' THEN (SELECT count(*) FROM support_conversations w
       WHERE w.state = 'waiting' AND (w.waiting_since, w.id) <= (c.waiting_since, c.id)) END AS place
     FROM support_conversations c WHERE c.id = $1`,
    [id],
  );
  return num(row?.place ?? null);
}

/**
 * One assignment, under a lock every node takes: the oldest waiting conversation to the online
 * agent below their limit who was assigned longest ago (round robin). Null when either is lacking.
 */
export async function assignOne(
  db: Queryable,
  now: Date,
): Promise<{ conversationId: number; agentId: number } | null> {
  await db.query('SELECT pg_advisory_xact_lock(46046)');
  const [conversation] = await db.query<{ id: string }>(
    `SELECT id FROM support_conversations WHERE state = 'waiting' ORDER BY waiting_since, id LIMIT 1 FOR UPDATE`,
  );
  if (!conversation) return null;
  const [agent] = await db.query<{ staff_id: string }>(
    `SELECT a.staff_id FROM support_agents a
     WHERE a.online_until > $1
       AND (SELECT count(*) FROM support_conversations c WHERE c.agent_id = a.staff_id AND c.state = 'open') < a.max_open
     ORDER BY a.last_assigned NULLS FIRST, a.staff_id LIMIT 1`,
    [now],
  );
  if (!agent) return null;
  const conversationId = Number(conversation.id);
  const agentId = Number(agent.staff_id);
  await setAgent(db, conversationId, agentId, now);
  await db.query(
    "UPDATE support_agents SET last_assigned = nextval('support_assign_seq') WHERE staff_id = $1",
    [agentId],
  );
  return { conversationId, agentId };
}

export async function setPresence(db: Queryable, staffId: number, until: Date): Promise<void> {
  await db.query(
    `INSERT INTO support_agents (staff_id, online_until) VALUES ($1, $2)
     ON CONFLICT (staff_id) DO UPDATE SET online_until = EXCLUDED.online_until`,
    [staffId, until],
  );
}

export async function setAgentLimit(
  db: Queryable,
  staffId: number,
  limit: number,
  by: number,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO support_agents (staff_id, max_open, limit_set_by, limit_set_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (staff_id) DO UPDATE SET max_open = EXCLUDED.max_open, limit_set_by = EXCLUDED.limit_set_by,
       limit_set_at = EXCLUDED.limit_set_at`,
    [staffId, limit, by, at],
  );
}

export async function anyOnline(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM support_agents WHERE online_until > $1 LIMIT 1', [now]);
  return rows.length > 0;
}

export type AgentRow = {
  staffId: number;
  online: boolean;
  open: number;
  limit: number;
  limitSetBy: number | null;
  limitSetAt: string | null;
};

export async function agents(db: Queryable, now: Date): Promise<AgentRow[]> {
  const rows = await db.query<Raw>(
    `SELECT a.staff_id, a.online_until > $1 AS online, a.max_open, a.limit_set_by, a.limit_set_at,
       (SELECT count(*) FROM support_conversations c WHERE c.agent_id = a.staff_id AND c.state = 'open') AS open
     FROM support_agents a ORDER BY a.staff_id`,
    [now],
  );
  return rows.map((r) => ({
    staffId: Number(r.staff_id),
    online: r.online === true,
    open: Number(r.open),
    limit: Number(r.max_open),
    limitSetBy: num(r.limit_set_by),
    limitSetAt: r.limit_set_at ? iso(r.limit_set_at) : null,
  }));
}

export type InboxRow = ConversationRow & {
  lastMessage: string | null;
  unread: number;
  queuePlace: number | null;
};

const VIEW_FILTER = {
  mine: "c.state = 'open' AND c.agent_id = $1",
  waiting: "c.state = 'waiting'",
  open: "c.state = 'open'",
  resolved: "c.state = 'resolved'",
} as const;

/** A view of the inbox: waiting oldest first, the others most recently active first; 200 at most. */
export async function inbox(
  db: Queryable,
  view: keyof typeof VIEW_FILTER,
  staffId: number,
): Promise<InboxRow[]> {
  const order = view === 'waiting' ? 'c.waiting_since, c.id' : 'c.updated_at DESC, c.id DESC';
  const rows = await db.query<Raw>(
    `SELECT ${CONVERSATION.split(',')
      .map((c) => `c.${c.trim()}`)
      .join(', ')},
       (SELECT m.body FROM support_messages m WHERE m.conversation_id = c.id AND m.author <> 'system'
          AND NOT m.private ORDER BY m.id DESC LIMIT 1) AS last_message,
       (SELECT count(*) FROM support_messages m WHERE m.conversation_id = c.id AND m.author = 'customer'
          AND m.id > c.agent_read) AS unread,
       CASE WHEN c.state = 'waiting' THEN (SELECT count(*) FROM support_conversations w WHERE w.state = 'waiting'
          AND (w.waiting_since, w.id) <= (c.waiting_since, c.id)) END AS queue_place
     FROM support_conversations c WHERE ${VIEW_FILTER[view]} AND $1::bigint IS NOT NULL ORDER BY ${order} LIMIT 200`,
    [staffId],
  );
  return rows.map((r) => ({
    ...toConversation(r),
    lastMessage: (r.last_message as string | null) ?? null,
    unread: Number(r.unread),
    queuePlace: num(r.queue_place),
  }));
}

export async function inboxRow(db: Queryable, id: number): Promise<InboxRow | null> {
  const conversation = await conversationById(db, id);
  if (!conversation) return null;
  const [extra] = await db.query<Raw>(
    `SELECT (SELECT m.body FROM support_messages m WHERE m.conversation_id = $1 AND m.author <> 'system'
          AND NOT m.private ORDER BY m.id DESC LIMIT 1) AS last_message,
       (SELECT count(*) FROM support_messages m WHERE m.conversation_id = $1 AND m.author = 'customer'
          AND m.id > $2) AS unread`,
    [id, conversation.agentRead],
  );
  return {
    ...conversation,
    lastMessage: (extra?.last_message as string | null) ?? null,
    unread: Number(extra?.unread ?? 0),
    queuePlace: await queuePlace(db, id),
  };
}

export async function canned(
  db: Queryable,
  language: string,
): Promise<{ id: number; language: string; title: string; body: string }[]> {
  const rows = await db.query<Raw>(
    'SELECT id, language, title, body FROM support_canned WHERE language = $1 ORDER BY key',
    [language],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    language: r.language as string,
    title: r.title as string,
    body: r.body as string,
  }));
}
