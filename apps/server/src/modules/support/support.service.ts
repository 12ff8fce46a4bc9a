import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  Code,
  interpolate,
  isLanguage,
  type Language,
  SUPPORT_LIMITS,
  type SupportConversation,
  type SupportHistory,
  type SupportMessage,
} from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database, Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import { limit, type RateLimiter } from '../../platform/ratelimit.ts';
import { localeTexts } from '../../platform/texts.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { StaffService } from '../staff/staff.service.ts';
import type { UploadOwner, UploadsService } from '../uploads/uploads.service.ts';
import { LineWriter } from './support.lines.ts';
import type { ConversationRow, MessageRow } from './support.repository.ts';
import * as repo from './support.repository.ts';

const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));

/** Who writes on the customer's side: a signed-in customer or a visitor with an e-mail address. */
export type SupportParty =
  | { kind: 'customer'; userId: number }
  | { kind: 'visitor'; visitorId: number; email: string };

/** What crosses nodes on the bus (topic `support.events`); each node hands it to its sockets. */
export type SupportEvent =
  | { kind: 'message'; message: SupportMessage; clientId?: string }
  | { kind: 'typing'; conversationId: number; author: 'customer' | 'agent' }
  | { kind: 'receipts'; conversationId: number; side: 'customer' | 'agent'; delivered: number; read: number }
  | { kind: 'conversation'; conversationId: number }
  | { kind: 'presence'; agentsOnline: boolean };

export const SUPPORT_TOPIC = 'support.events';

export type SupportDeps = {
  db: Database;
  bus: EventBus;
  mailer: Mailer;
  limiter: RateLimiter;
  customers: Pick<CustomerDirectory, 'get'>;
  staff: Pick<StaffService, 'refsOf'>;
  uploads: Pick<UploadsService, 'takeInTx' | 'store' | 'fileTakenBy'>;
  /** Where the mailed answers send the reader back to (the public URL), if known. */
  publicUrl?: string | undefined;
  now?: () => number;
  logger?: Logger;
};

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const ownerOf = (party: SupportParty): repo.Owner =>
  party.kind === 'customer' ? { userId: party.userId } : { visitorId: party.visitorId };
const owns = (party: SupportParty, c: ConversationRow) =>
  party.kind === 'customer' ? c.userId === party.userId : c.visitorId === party.visitorId;
/** Whose an upload is: a customer's own, or a visitor's by reference (they are not customers). */
export const uploadOwnerOf = (party: SupportParty): UploadOwner =>
  party.kind === 'customer' ? party.userId : `support_visitor:${party.visitorId}`;
/** What takes a conversation's attachments (`uploads.used_for`). */
export const attachmentsOf = (conversationId: number) => `support:${conversationId}`;
/** An agent's name as customers see it: their e-mail's local part. */
export const agentNameOf = (email: string) => email.split('@')[0] ?? email;

/**
 * The chat's rules (customer side here; the agents' in support.staff.ts): conversations, the
 * transcript, receipts, rating, presence and assignment. Every change is published on the bus, so
 * sockets on every node hear it.
 */
export class SupportService {
  readonly now: () => number;
  readonly deps: SupportDeps;
  /** The common lines of both sides, committed together when they come in the same turn. */
  readonly lines: LineWriter;

  constructor(deps: SupportDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.lines = new LineWriter(deps.db, () => this.at());
  }

  private at(): Date {
    return new Date(this.now());
  }

  publish(event: SupportEvent): void {
    this.deps.bus.publish(SUPPORT_TOPIC, event).catch((error: unknown) => {
      this.deps.logger?.error({ err: error }, 'support event not published');
    });
  }

  async status(): Promise<{ agentsOnline: boolean }> {
    return { agentsOnline: await repo.anyOnline(this.deps.db, this.at()) };
  }

  /** A visitor's token (kept by the page; only its hash is stored). Limited per address, never per e-mail. */
  async startVisitor(email: string, ip: string): Promise<{ visitorToken: string }> {
    await limit({ limiter: this.deps.limiter }, `support:visitor:${ip}`, { limit: 10, windowMs: 3600_000 });
    const visitorToken = randomBytes(32).toString('base64url');
    await repo.insertVisitor(this.deps.db, email, hashOf(visitorToken), this.at());
    return { visitorToken };
  }

  async visitorOf(token: string): Promise<SupportParty | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
    const visitor = await repo.visitorByHash(this.deps.db, hashOf(token));
    return visitor ? { kind: 'visitor', visitorId: visitor.id, email: visitor.email } : null;
  }

  /** The party's conversation (whatever its state: a resolved one may still be rated), else a new one. */
  async open(
    party: SupportParty,
    input: { language: Language; email?: string | undefined },
  ): Promise<SupportHistory> {
    const owner = ownerOf(party);
    let conversation = await repo.latestOf(this.deps.db, owner);
    if (!conversation) {
      await limit({ limiter: this.deps.limiter }, `support:open:${JSON.stringify(owner)}`, {
        limit: 10,
        windowMs: 3600_000,
      });
      const email =
        party.kind === 'visitor'
          ? party.email
          : (input.email ?? (await this.deps.customers.get(party.userId))?.email ?? null);
      const byMail = !(await repo.anyOnline(this.deps.db, this.at()));
      conversation = await repo.insertConversation(this.deps.db, owner, {
        email,
        language: input.language,
        byMail,
        at: this.at(),
      });
      await this.assign();
    }
    return this.history(party, conversation.id);
  }

  /** The party's latest conversation, or null; nothing is created. */
  async latest(party: SupportParty): Promise<SupportHistory | null> {
    const conversation = await repo.latestOf(this.deps.db, ownerOf(party));
    return conversation ? this.history(party, conversation.id) : null;
  }

  /** One of the party's conversations; anyone else's is 10028, as if it did not exist. */
  async mine(
    party: SupportParty,
    id: number,
    db: Queryable = this.deps.db,
    lock = false,
  ): Promise<ConversationRow> {
    const conversation = await repo.conversationById(db, id, lock);
    if (!conversation || !owns(party, conversation)) throw new ApiError(Code.NOT_FOUND);
    return conversation;
  }

  async history(party: SupportParty, id: number): Promise<SupportHistory> {
    const conversation = await this.mine(party, id);
    const messages = await repo.messagesOf(this.deps.db, id, false);
    return { conversation: await this.customerView(conversation), messages: await this.wire(messages) };
  }

  async customerView(c: ConversationRow): Promise<SupportConversation> {
    const agent = c.agentId ? (await this.deps.staff.refsOf([c.agentId])).get(c.agentId) : undefined;
    return {
      id: c.id,
      state: c.state,
      language: isLanguage(c.language) ? c.language : 'en',
      agentName: agent ? agentNameOf(agent.email) : null,
      queuePlace: c.state === 'waiting' ? await repo.queuePlace(this.deps.db, c.id) : null,
      byMail: c.byMail,
      rating: c.rating,
      seen: { delivered: c.agentDelivered, read: c.agentRead },
      createdAt: c.createdAt,
    };
  }

  /** Messages as the wire carries them, with the agents' names. */
  async wire(rows: MessageRow[]): Promise<SupportMessage[]> {
    const refs = await this.staffRefs(rows.flatMap((r) => (r.staffId ? [r.staffId] : [])));
    return rows.map((r) => ({
      id: r.id,
      conversationId: r.conversationId,
      author: r.author,
      agentName: r.staffId ? agentNameOf(refs.get(r.staffId)?.email ?? 'agent') : null,
      private: r.private,
      body: r.body,
      attachment: r.attachment,
      event: r.event,
      at: r.at,
    }));
  }

  /** Agents' e-mail addresses by id, kept a minute (every line of an agent names them). */
  private readonly refs = new Map<number, { email: string; until: number }>();

  private async staffRefs(ids: number[]): Promise<Map<number, { email: string }>> {
    const now = Date.now();
    const missing = [...new Set(ids)].filter((id) => (this.refs.get(id)?.until ?? 0) < now);
    if (missing.length > 0)
      for (const [id, ref] of await this.deps.staff.refsOf(missing))
        this.refs.set(id, { email: ref.email, until: now + 60_000 });
    return this.refs;
  }

  /**
   * A customer's message. Limited per conversation and side (only its owner writes on this side,
   * so nobody else can use up the owner's allowance). A message after resolution puts the
   * conversation back in the queue. An attachment is an upload of the sender's own, taken here.
   * `joined`: the socket has joined the conversation, so it is known to be the sender's; the
   * common line (no attachment, not resolved) then goes to the group commit (`lines`).
   */
  async sendAsCustomer(
    party: SupportParty,
    id: number,
    input: { body: string; attachment?: string | undefined },
    clientId?: string,
    joined = false,
  ): Promise<SupportMessage> {
    if (joined && !input.attachment) {
      await limit({ limiter: this.deps.limiter }, `support:msg:${id}:customer`, SUPPORT_LIMITS.messages);
      const line = await this.lines.append({
        author: 'customer',
        owner: ownerOf(party),
        conversationId: id,
        body: input.body,
      });
      if (line) return this.announce(line, clientId);
    }
    return this.sendChecked(party, id, input, clientId, joined && !input.attachment);
  }

  /** A line committed: to every node's sockets, as the wire carries it. */
  async announce(row: MessageRow, clientId?: string): Promise<SupportMessage> {
    const [message] = (await this.wire([row])) as [SupportMessage];
    this.publish({ kind: 'message', message, ...(clientId ? { clientId } : {}) });
    return message;
  }

  /** The checked path: the conversation locked and read, then the line (and a reopening) in one transaction. */
  private async sendChecked(
    party: SupportParty,
    id: number,
    input: { body: string; attachment?: string | undefined },
    clientId: string | undefined,
    counted: boolean,
  ): Promise<SupportMessage> {
    const { row, requeued } = await this.deps.db.transaction(async (tx) => {
      const conversation = await this.mine(party, id, tx, true);
      // Counted only once the conversation is known to be the sender's.
      if (!counted)
        await limit({ limiter: this.deps.limiter }, `support:msg:${id}:customer`, SUPPORT_LIMITS.messages);
      const requeued = conversation.state === 'resolved';
      if (requeued) await repo.markWaiting(tx, id, this.at());
      if (input.attachment) await this.takeAttachment(tx, uploadOwnerOf(party), input.attachment, id);
      const row = await repo.insertMessage(tx, {
        conversationId: id,
        author: 'customer',
        staffId: null,
        private: false,
        body: input.body,
        attachment: input.attachment ?? null,
        event: null,
        at: this.at(),
      });
      if (requeued)
        await repo.insertMessage(tx, { ...SYSTEM, conversationId: id, event: 'reopened', at: this.at() });
      return { row, requeued };
    });
    const message = await this.announce(row, clientId);
    if (requeued) {
      this.publish({ kind: 'conversation', conversationId: id });
      await this.assign();
    }
    return message;
  }

  /**
   * An attachment of the sender's own (10028 otherwise, whoever else's it is), unused, of the
   * chat's purpose, taken by the conversation in the message's transaction.
   */
  async takeAttachment(tx: Queryable, owner: UploadOwner, upload: string, id: number): Promise<void> {
    await this.deps.uploads.takeInTx(
      tx,
      owner,
      [{ path: 'attachment', id: upload, purpose: 'support_attachment' }],
      attachmentsOf(id),
    );
  }

  /** A picture or a PDF of a customer, visitor or agent, checked and re-encoded by the uploads service. */
  upload(owner: UploadOwner, read: (maxBytes: number) => Promise<Uint8Array>) {
    return this.deps.uploads.store(owner, 'support_attachment', read);
  }

  /**
   * An attachment for a participant of its conversation: its customer or visitor (never from an
   * agent's private note), or any agent of the duty. Anything else, null: someone else's, unknown,
   * or not sent yet.
   */
  async attachment(viewer: SupportParty | 'agent', upload: string) {
    const line = await repo.attachmentLine(this.deps.db, upload);
    if (!line) return null;
    if (viewer !== 'agent') {
      if (line.private) return null;
      const conversation = await repo.conversationById(this.deps.db, line.conversationId);
      if (!conversation || !owns(viewer, conversation)) return null;
    }
    return this.deps.uploads.fileTakenBy(attachmentsOf(line.conversationId), upload);
  }

  /** How far one side has received and read the other's messages; moves forward only. */
  async receipts(side: 'customer' | 'agent', id: number, delivered: number, read: number): Promise<void> {
    const after = await repo.advanceReceipts(this.deps.db, id, side, delivered, read);
    if (after) this.publish({ kind: 'receipts', conversationId: id, side, ...after });
  }

  /** A 1-5 rating, once per resolution, only when resolved (10008 otherwise); recorded in the transcript. */
  async rate(party: SupportParty, id: number, rating: number): Promise<SupportConversation> {
    await this.mine(party, id);
    const row = await this.deps.db.transaction(async (tx) => {
      await this.mine(party, id, tx, true);
      if (!(await repo.setRating(tx, id, rating, this.at()))) throw new ApiError(Code.WRONG_USER_STATUS);
      return repo.insertMessage(tx, {
        ...SYSTEM,
        conversationId: id,
        event: 'rated',
        body: String(rating),
        at: this.at(),
      });
    });
    const [message] = (await this.wire([row])) as [SupportMessage];
    this.publish({ kind: 'message', message });
    this.publish({ kind: 'conversation', conversationId: id });
    return this.customerView(await this.mine(party, id));
  }

  /** An agent's open inbox says so (every SUPPORT_LIMITS.heartbeatSeconds); then waiting conversations are assigned. */
  async agentOnline(staffId: number): Promise<void> {
    const before = await repo.anyOnline(this.deps.db, this.at());
    await repo.setPresence(
      this.deps.db,
      staffId,
      new Date(this.now() + SUPPORT_LIMITS.presenceSeconds * 1000),
    );
    if (!before) this.publish({ kind: 'presence', agentsOnline: true });
    await this.assign();
  }

  async agentOffline(staffId: number): Promise<void> {
    await repo.setPresence(this.deps.db, staffId, this.at());
    if (!(await repo.anyOnline(this.deps.db, this.at())))
      this.publish({ kind: 'presence', agentsOnline: false });
  }

  /** Assigns waiting conversations, oldest first, round-robin, while an online agent has room. */
  async assign(): Promise<number> {
    let count = 0;
    for (;;) {
      const done = await this.deps.db.transaction(async (tx) => {
        const assigned = await repo.assignOne(tx, this.at());
        if (!assigned) return null;
        const line = await repo.insertMessage(tx, {
          ...SYSTEM,
          staffId: assigned.agentId,
          conversationId: assigned.conversationId,
          event: 'assigned',
          at: this.at(),
        });
        return { ...assigned, line };
      });
      if (!done) return count;
      count += 1;
      const [message] = (await this.wire([done.line])) as [SupportMessage];
      this.publish({ kind: 'message', message });
      this.publish({ kind: 'conversation', conversationId: done.conversationId });
    }
  }

  /** Mails an agent's answer when the conversation was opened with nobody online. */
  async mailAnswer(
    c: Pick<ConversationRow, 'id' | 'byMail' | 'email' | 'language'>,
    agentEmail: string,
    text: string,
  ): Promise<void> {
    if (!c.byMail || !c.email) return;
    const language: Language = isLanguage(c.language) ? c.language : 'en';
    const words = TEXT[language].mail;
    const url = `${(this.deps.publicUrl ?? '').replace(/\/+$/, '')}/service.html?language=${language}`;
    const values = { id: c.id, agent: agentNameOf(agentEmail), text, url };
    await this.deps.mailer
      .send({
        to: c.email,
        subject: interpolate(words.subject, values, language),
        text: interpolate(words.body, values, language),
      })
      .catch((error: unknown) =>
        this.deps.logger?.error({ err: error, id: c.id }, 'support answer not mailed'),
      );
  }
}

export const SYSTEM = {
  author: 'system',
  staffId: null,
  private: false,
  body: '',
  attachment: null,
} as const;
