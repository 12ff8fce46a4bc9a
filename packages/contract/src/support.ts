import { z } from 'zod/mini';
import { wireId } from './ids.ts';
import { LANGUAGES } from './languages.ts';
import { STAFF_DUTIES } from './roles.ts';
import type { AdminCallDefinition } from './staffBase.ts';
import { uploadedFile, uploadId } from './uploads.ts';

/**
 * The customer-service chat (issue 36; anchor: Chatwoot's conversations, assignment and inbox).
 *
 * A signed-in customer, or a visitor who gave an e-mail address (a visitor token kept by the
 * service page), opens a conversation. Messages travel over the websocket `SUPPORT_WS_PATH`
 * (frames below) and are kept, append-only, as the transcript. A waiting conversation is
 * assigned round-robin to an agent (staff of the `supportChat` duty with the inbox open) below
 * their limit, the oldest waiting first; the customer sees their place in the queue. When no
 * agent is online the conversation is marked `byMail`: the agents' answers are also mailed.
 * Private notes never reach the customer. Text is text: clients render it with textContent.
 */

export {
  SUPPORT_FILE_PATH,
  SUPPORT_VISITOR_HEADER,
  SUPPORT_WS_PATH,
  supportFileUrl,
} from './supportFacts.ts';

export const SUPPORT_LIMITS = {
  /** The longest message, in characters (a frame of it stays under the websocket's 4 KB). */
  messageChars: 1000,
  /** Messages per side of one conversation per window (the customer's and the agents' apart). */
  messages: { limit: 30, windowMs: 60_000 },
  /** Conversations an agent takes at once unless staff set another limit. */
  agentLimit: 5,
  /** The range staff may set an agent's limit in. */
  agentLimitRange: { min: 1, max: 50 },
  /** An agent counts as online this long after their inbox last said so. */
  presenceSeconds: 60,
  /** How often an open inbox says so. */
  heartbeatSeconds: 20,
} as const;

export const SUPPORT_STATES = ['waiting', 'open', 'resolved'] as const;
export const supportState = z.enum(SUPPORT_STATES);
export type SupportState = (typeof SUPPORT_STATES)[number];
/** What a system line of the transcript records. */
export const SUPPORT_EVENTS = ['assigned', 'transferred', 'resolved', 'reopened', 'rated'] as const;

export const supportLanguage = z.enum(LANGUAGES);
export const supportRating = z.int().check(z.gte(1), z.lte(5));
const supportText = z.string().check(z.trim(), z.minLength(1), z.maxLength(SUPPORT_LIMITS.messageChars));
export const supportEmail = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.maxLength(254), z.regex(/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,24}$/));

/** One line of a transcript. `private` lines (agents' notes) are never sent to the customer. */
export const supportMessage = z.object({
  id: z.int(),
  conversationId: z.int(),
  author: z.enum(['customer', 'agent', 'system']),
  /** The agent's name as the customer sees it (the part of their e-mail before the @). */
  agentName: z.nullable(z.string()),
  private: z.boolean(),
  body: z.string(),
  attachment: z.nullable(uploadId),
  event: z.nullable(z.enum(SUPPORT_EVENTS)),
  at: z.string(),
});
export type SupportMessage = z.infer<typeof supportMessage>;

/** How far the other side has received and read (message ids). */
export const supportReceipts = z.object({ delivered: z.int(), read: z.int() });

/** A conversation as its customer sees it. */
export const supportConversation = z.object({
  id: z.int(),
  state: supportState,
  language: supportLanguage,
  agentName: z.nullable(z.string()),
  /** 1 for the next to be answered; null unless waiting. */
  queuePlace: z.nullable(z.int()),
  byMail: z.boolean(),
  rating: z.nullable(z.int()),
  /** How far the agents have received and read the customer's messages. */
  seen: supportReceipts,
  createdAt: z.string(),
});
export type SupportConversation = z.infer<typeof supportConversation>;

export const supportHistory = z.object({
  conversation: supportConversation,
  messages: z.array(supportMessage),
});
export type SupportHistory = z.infer<typeof supportHistory>;

export const supportOpenBody = z.object({
  language: supportLanguage,
  /** Where the answer is mailed when no agent is online (a visitor's is their token's). */
  email: z.optional(supportEmail),
});
export const supportSendBody = z.object({
  body: supportText,
  attachment: z.optional(uploadId),
});

/** A conversation in the staff inbox. */
export const supportInboxItem = z.object({
  id: z.int(),
  state: supportState,
  language: supportLanguage,
  customer: z.nullable(z.object({ id: z.int(), userName: z.string() })),
  email: z.nullable(z.string()),
  agent: z.nullable(z.object({ id: z.int(), email: z.string() })),
  waitingSince: z.string(),
  updatedAt: z.string(),
  queuePlace: z.nullable(z.int()),
  lastMessage: z.nullable(z.string()),
  unread: z.int(),
  byMail: z.boolean(),
  rating: z.nullable(z.int()),
  /** How far the customer has received and read the agents' messages. */
  seen: supportReceipts,
});
export type SupportInboxItem = z.infer<typeof supportInboxItem>;

export const supportAgent = z.object({
  id: z.int(),
  email: z.string(),
  online: z.boolean(),
  open: z.int(),
  limit: z.int(),
  /** Who set the limit last and when; null while it is the default. */
  limitSetBy: z.nullable(z.string()),
  limitSetAt: z.nullable(z.string()),
});
export type SupportAgent = z.infer<typeof supportAgent>;

export const cannedReply = z.object({
  id: z.int(),
  language: supportLanguage,
  title: z.string(),
  body: z.string(),
});
export type CannedReply = z.infer<typeof cannedReply>;

export const SUPPORT_VIEWS = ['mine', 'waiting', 'open', 'resolved'] as const;

/** Frames a client sends on the websocket; the first is `hello`. */
export const supportClientFrame = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('hello'),
    as: z.enum(['customer', 'agent']),
    token: z.optional(z.string().check(z.maxLength(256))),
    visitor: z.optional(z.string().check(z.maxLength(256))),
  }),
  z.object({ t: z.literal('join'), conversationId: z.int() }),
  z.object({
    t: z.literal('send'),
    conversationId: z.int(),
    /** The client's own id of the message, echoed in the answer or the error. */
    clientId: z.string().check(z.maxLength(64)),
    body: supportText,
    attachment: z.optional(uploadId),
    private: z.optional(z.boolean()),
  }),
  z.object({ t: z.literal('typing'), conversationId: z.int() }),
  z.object({ t: z.literal('delivered'), conversationId: z.int(), messageId: z.int() }),
  z.object({ t: z.literal('read'), conversationId: z.int(), messageId: z.int() }),
]);
export type SupportClientFrame = z.infer<typeof supportClientFrame>;

/** Frames the server sends. */
export type SupportServerFrame =
  | { t: 'ready'; as: 'customer' | 'agent'; agentsOnline: boolean }
  | { t: 'message'; message: SupportMessage; clientId?: string }
  | { t: 'typing'; conversationId: number; author: 'customer' | 'agent' }
  | { t: 'receipts'; conversationId: number; side: 'customer' | 'agent'; delivered: number; read: number }
  | { t: 'conversation'; conversationId: number }
  | { t: 'presence'; agentsOnline: boolean }
  | { t: 'error'; code: number; clientId?: string };

const SUPPORT_STAFF = STAFF_DUTIES.supportChat.roles;
export const supportAgentLimit = z
  .int()
  .check(z.gte(SUPPORT_LIMITS.agentLimitRange.min), z.lte(SUPPORT_LIMITS.agentLimitRange.max));
const idParams = z.object({ id: wireId() });

function supportCall<const D extends AdminCallDefinition>(definition: D): D {
  return definition;
}

/** The back office's inbox (staff API). Messages and notes are sent over the websocket. */
export const supportAdminCalls = {
  supportInbox: supportCall({
    method: 'GET',
    path: '/support/inbox',
    summary:
      'Conversations by view (mine, waiting, open, resolved): waiting oldest first, others newest first',
    roles: SUPPORT_STAFF,
    query: z.object({ view: z.optional(z.enum(SUPPORT_VIEWS)) }),
    data: z.array(supportInboxItem),
  }),
  supportConversation: supportCall({
    method: 'GET',
    path: '/support/conversations/:id',
    summary: "One conversation and its whole transcript, agents' private notes included",
    roles: SUPPORT_STAFF,
    params: idParams,
    data: z.object({ item: supportInboxItem, messages: z.array(supportMessage) }),
  }),
  supportAgents: supportCall({
    method: 'GET',
    path: '/support/agents',
    summary: 'Agents (active staff of the chat duty): online or not, conversations open, their limit',
    roles: SUPPORT_STAFF,
    data: z.array(supportAgent),
  }),
  transferSupportConversation: supportCall({
    method: 'POST',
    path: '/support/conversations/:id/transfer',
    summary: 'Hand a conversation to another agent (its agent or an admin)',
    roles: SUPPORT_STAFF,
    params: idParams,
    body: z.object({ staffId: z.int().check(z.gte(1)) }),
    data: supportInboxItem,
  }),
  resolveSupportConversation: supportCall({
    method: 'POST',
    path: '/support/conversations/:id/resolve',
    summary: 'Resolve a conversation (its agent or an admin); the customer may then rate it',
    roles: SUPPORT_STAFF,
    params: idParams,
    data: supportInboxItem,
  }),
  reopenSupportConversation: supportCall({
    method: 'POST',
    path: '/support/conversations/:id/reopen',
    summary: 'Reopen a resolved conversation, to the agent who reopens it',
    roles: SUPPORT_STAFF,
    params: idParams,
    data: supportInboxItem,
  }),
  uploadSupportAttachment: supportCall({
    method: 'POST',
    path: '/support/attachment',
    summary:
      'An agent\'s attachment (multipart/form-data, one part named "file"): a picture or a PDF, checked by its bytes and re-encoded like every upload; then sent with a reply or a note over the websocket',
    roles: SUPPORT_STAFF,
    data: uploadedFile,
  }),
  setSupportAgentLimit: supportCall({
    method: 'POST',
    path: '/support/agents/:id/limit',
    summary: "Set an agent's limit of conversations open at once (1-50; audited); assignment follows it",
    roles: STAFF_DUTIES.supportLimits.roles,
    params: idParams,
    body: z.object({ limit: supportAgentLimit }),
    data: supportAgent,
  }),
  supportCannedReplies: supportCall({
    method: 'GET',
    path: '/support/canned',
    summary: 'Canned replies in one language (all ten seeded)',
    roles: SUPPORT_STAFF,
    query: z.object({ language: z.optional(supportLanguage) }),
    data: z.array(cannedReply),
  }),
} as const satisfies Record<string, AdminCallDefinition>;
