import {
  Code,
  isLanguage,
  type Language,
  SUPPORT_LIMITS,
  type SupportAgent,
  type SupportInboxItem,
  type SupportMessage,
} from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import { limit } from '../../platform/ratelimit.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { StaffService, StaffSession } from '../staff/staff.service.ts';
import type { ConversationRow, InboxRow } from './support.repository.ts';
import * as repo from './support.repository.ts';
import { type SupportService, SYSTEM } from './support.service.ts';

type Agent = Pick<StaffSession, 'staffId' | 'email' | 'role'>;

/**
 * The agents' side of the chat: the inbox, replies and private notes, transfer, resolve, reopen.
 * Every agent of the duty reads every conversation; only its agent (or an admin) writes in an open
 * one, and any agent takes a waiting one by answering it.
 */
export class SupportDesk {
  private readonly support: SupportService;
  private readonly staff: Pick<StaffService, 'refsOf'>;
  private readonly audit: Pick<AuditService, 'appendInTx'>;

  constructor(
    support: SupportService,
    staff: Pick<StaffService, 'refsOf'>,
    audit: Pick<AuditService, 'appendInTx'>,
  ) {
    this.support = support;
    this.staff = staff;
    this.audit = audit;
  }

  private get db() {
    return this.support.deps.db;
  }

  private at(): Date {
    return new Date(this.support.now());
  }

  async inbox(agent: Agent, view: 'mine' | 'waiting' | 'open' | 'resolved'): Promise<SupportInboxItem[]> {
    return this.items(await repo.inbox(this.db, view, agent.staffId));
  }

  async item(id: number): Promise<SupportInboxItem> {
    const row = await repo.inboxRow(this.db, id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return (await this.items([row]))[0] as SupportInboxItem;
  }

  async detail(id: number): Promise<{ item: SupportInboxItem; messages: SupportMessage[] }> {
    const item = await this.item(id);
    return { item, messages: await this.support.wire(await repo.messagesOf(this.db, id, true)) };
  }

  private async items(rows: InboxRow[]): Promise<SupportInboxItem[]> {
    const staffIds = [...new Set(rows.flatMap((r) => (r.agentId ? [r.agentId] : [])))];
    const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
    const [refs, names] = await Promise.all([
      staffIds.length ? this.staff.refsOf(staffIds) : new Map(),
      Promise.all(
        userIds.map(async (id) => [id, (await this.support.deps.customers.get(id))?.userName] as const),
      ),
    ]);
    const nameOf = new Map(names);
    return rows.map((r) => ({
      id: r.id,
      state: r.state,
      language: isLanguage(r.language) ? r.language : ('en' as Language),
      customer: r.userId ? { id: r.userId, userName: nameOf.get(r.userId) ?? '' } : null,
      email: r.email,
      agent: r.agentId ? (refs.get(r.agentId) ?? { id: r.agentId, email: '' }) : null,
      waitingSince: r.waitingSince,
      updatedAt: r.updatedAt,
      queuePlace: r.queuePlace,
      lastMessage: r.lastMessage,
      unread: r.unread,
      byMail: r.byMail,
      rating: r.rating,
      seen: { delivered: r.customerDelivered, read: r.customerRead },
    }));
  }

  async agents(): Promise<SupportAgent[]> {
    const rows = await repo.agents(this.db, this.at());
    const refs = rows.length ? await this.staff.refsOf(rows.map((r) => r.staffId)) : new Map();
    return rows.map((r) => ({
      id: r.staffId,
      email: refs.get(r.staffId)?.email ?? '',
      online: r.online,
      open: r.open,
      limit: r.limit,
    }));
  }

  /** May this agent write in it: its agent, an admin, or anyone in a waiting one (answering takes it). */
  private mayWrite(agent: Agent, c: ConversationRow): boolean {
    return agent.role === 'admin' || c.agentId === agent.staffId || c.state === 'waiting';
  }

  /** A reply (sent to the customer, and mailed when the conversation is by mail) or a private note. */
  async send(
    agent: Agent,
    id: number,
    input: { body: string; private?: boolean | undefined },
    clientId?: string,
  ): Promise<SupportMessage> {
    const note = input.private === true;
    const { row, conversation, taken } = await this.db.transaction(async (tx) => {
      const conversation = await repo.conversationById(tx, id, true);
      if (!conversation) throw new ApiError(Code.NOT_FOUND);
      if (!this.mayWrite(agent, conversation)) throw new ApiError(Code.FORBIDDEN);
      await limit({ limiter: this.support.deps.limiter }, `support:msg:${id}:agent`, SUPPORT_LIMITS.messages);
      if (conversation.state === 'resolved' && !note) throw new ApiError(Code.WRONG_USER_STATUS);
      const taken = conversation.state === 'waiting' && !note;
      if (taken) await repo.setAgent(tx, id, agent.staffId, this.at());
      const row = await repo.insertMessage(tx, {
        conversationId: id,
        author: 'agent',
        staffId: agent.staffId,
        private: note,
        body: input.body,
        attachment: null,
        event: null,
        at: this.at(),
      });
      return { row, conversation, taken };
    });
    const [message] = (await this.support.wire([row])) as [SupportMessage];
    this.support.publish({ kind: 'message', message, ...(clientId ? { clientId } : {}) });
    if (taken) this.support.publish({ kind: 'conversation', conversationId: id });
    if (!note) await this.support.mailAnswer(conversation, agent.email, input.body);
    return message;
  }

  /** A system line and a state change, in one transaction, then published. */
  private async change(
    agent: Agent,
    id: number,
    event: 'transferred' | 'resolved' | 'reopened',
    /** Checks the state and changes it; answers the agent the line names, if any. */
    apply: (c: ConversationRow, tx: Queryable) => Promise<number | null>,
  ): Promise<SupportInboxItem> {
    const line = await this.db.transaction(async (tx) => {
      const conversation = await repo.conversationById(tx, id, true);
      if (!conversation) throw new ApiError(Code.NOT_FOUND);
      if (agent.role !== 'admin' && conversation.agentId !== agent.staffId)
        throw new ApiError(Code.FORBIDDEN);
      const staffId = await apply(conversation, tx);
      // Transfer, resolve and reopen are staff decisions: audited beside the transcript's line.
      await this.audit.appendInTx(tx, [
        {
          actor: `staff:${agent.staffId}`,
          action: `support.${event}`,
          subject: `conversation:${id}`,
          data: staffId === null ? {} : { agent: staffId },
        },
      ]);
      return repo.insertMessage(tx, { ...SYSTEM, staffId, conversationId: id, event, at: this.at() });
    });
    const [message] = (await this.support.wire([line])) as [SupportMessage];
    this.support.publish({ kind: 'message', message });
    this.support.publish({ kind: 'conversation', conversationId: id });
    return this.item(id);
  }

  async transfer(agent: Agent, id: number, toStaffId: number): Promise<SupportInboxItem> {
    const [target] = (await this.agents()).filter((a) => a.id === toStaffId);
    if (!target) throw new ApiError(Code.INVALID_INPUT, [{ path: 'staffId', issue: 'not_an_agent' }]);
    return this.change(agent, id, 'transferred', async (c, tx) => {
      if (c.state !== 'open') throw new ApiError(Code.WRONG_USER_STATUS);
      await repo.setAgent(tx, id, toStaffId, this.at());
      return toStaffId;
    });
  }

  async resolve(agent: Agent, id: number): Promise<SupportInboxItem> {
    const item = await this.change(agent, id, 'resolved', async (c, tx) => {
      if (c.state !== 'open') throw new ApiError(Code.WRONG_USER_STATUS);
      await repo.markResolved(tx, id, this.at());
      return null;
    });
    await this.support.assign();
    return item;
  }

  /** A resolved conversation back to the agent who reopens it. */
  async reopen(agent: Agent, id: number): Promise<SupportInboxItem> {
    const reopened = { ...agent, role: 'admin' as const };
    return this.change(reopened, id, 'reopened', async (c, tx) => {
      if (c.state !== 'resolved') throw new ApiError(Code.WRONG_USER_STATUS);
      await repo.setAgent(tx, id, agent.staffId, this.at());
      return agent.staffId;
    });
  }

  async canned(language: Language) {
    const rows = await repo.canned(this.db, language);
    return rows.map((r) => ({ ...r, language: isLanguage(r.language) ? r.language : language }));
  }
}
