import {
  Code,
  isLanguage,
  type Language,
  STAFF_DUTIES,
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
/** An agent's uploads are theirs by reference (staff are not customers). */
export const agentUploads = (staffId: number) => `staff:${staffId}`;

/**
 * The agents' side of the chat: the inbox, replies and private notes, transfer, resolve, reopen.
 * Every agent of the duty reads every conversation; only its agent (or an admin) writes in an open
 * one, and any agent takes a waiting one by answering it.
 */
export class SupportDesk {
  private readonly support: SupportService;
  private readonly staff: Pick<StaffService, 'refsOf' | 'activeOfRoles'>;
  private readonly audit: Pick<AuditService, 'appendInTx'>;

  constructor(
    support: SupportService,
    staff: Pick<StaffService, 'refsOf' | 'activeOfRoles'>,
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

  /** The agents: active staff of the chat duty, and anyone still holding open conversations. */
  async agents(): Promise<SupportAgent[]> {
    const [rows, active] = await Promise.all([
      repo.agents(this.db, this.at()),
      this.staff.activeOfRoles(STAFF_DUTIES.supportChat.roles),
    ]);
    const byId = new Map(rows.map((r) => [r.staffId, r]));
    const ids = [
      ...new Set([...active.map((a) => a.id), ...rows.filter((r) => r.open > 0).map((r) => r.staffId)]),
    ];
    const setters = rows.flatMap((r) => (r.limitSetBy ? [r.limitSetBy] : []));
    const refs = await this.staff.refsOf([...new Set([...ids, ...setters])]);
    return ids
      .map((id) => {
        const r = byId.get(id);
        return {
          id,
          email: refs.get(id)?.email ?? '',
          online: r?.online ?? false,
          open: r?.open ?? 0,
          limit: r?.limit ?? SUPPORT_LIMITS.agentLimit,
          limitSetBy: r?.limitSetBy ? (refs.get(r.limitSetBy)?.email ?? '') : null,
          limitSetAt: r?.limitSetAt ?? null,
        };
      })
      .sort((a, b) => a.id - b.id);
  }

  /**
   * Staff of the `supportLimits` duty set an agent's limit of conversations open at once; audited
   * beside the change. A higher limit lets the waiting in at once; a lower one takes nothing away
   * (the agent gets no more until they are under it).
   */
  async setLimit(by: Agent, staffId: number, limit: number): Promise<SupportAgent> {
    const agents = await this.agents();
    const before = agents.find((a) => a.id === staffId);
    if (!before) throw new ApiError(Code.INVALID_INPUT, [{ path: 'id', issue: 'not_an_agent' }]);
    await this.db.transaction(async (tx) => {
      await repo.setAgentLimit(tx, staffId, limit, by.staffId, this.at());
      await this.audit.appendInTx(tx, [
        {
          actor: `staff:${by.staffId}`,
          action: 'support.agent_limit',
          subject: `staff:${staffId}`,
          data: { limit, previous: before.limit },
        },
      ]);
    });
    await this.support.assign();
    return (await this.agents()).find((a) => a.id === staffId) as SupportAgent;
  }

  /** May this agent write in it: its agent, an admin, or anyone in a waiting one (answering takes it). */
  private mayWrite(agent: Agent, c: ConversationRow): boolean {
    return agent.role === 'admin' || c.agentId === agent.staffId || c.state === 'waiting';
  }

  /**
   * A reply (sent to the customer, and mailed when the conversation is by mail) or a private note.
   * The common line (no attachment, in an open conversation the agent may write in) goes to the
   * group commit; anything else takes the checked path, which says why or takes a waiting one.
   */
  async send(
    agent: Agent,
    id: number,
    input: { body: string; private?: boolean | undefined; attachment?: string | undefined },
    clientId?: string,
  ): Promise<SupportMessage> {
    const note = input.private === true;
    if (!input.attachment) {
      await limit({ limiter: this.support.deps.limiter }, `support:msg:${id}:agent`, SUPPORT_LIMITS.messages);
      const line = await this.support.lines.append({
        author: 'agent',
        staffId: agent.staffId,
        anyAgent: agent.role === 'admin',
        private: note,
        conversationId: id,
        body: input.body,
      });
      if (line) {
        const message = await this.support.announce(line, clientId);
        if (!note) await this.support.mailAnswer({ ...line, id }, agent.email, input.body);
        return message;
      }
    }
    return this.sendChecked(agent, id, input, clientId, !input.attachment);
  }

  private async sendChecked(
    agent: Agent,
    id: number,
    input: { body: string; private?: boolean | undefined; attachment?: string | undefined },
    clientId: string | undefined,
    counted: boolean,
  ): Promise<SupportMessage> {
    const note = input.private === true;
    const { row, conversation, taken } = await this.db.transaction(async (tx) => {
      const conversation = await repo.conversationById(tx, id, true);
      if (!conversation) throw new ApiError(Code.NOT_FOUND);
      if (!this.mayWrite(agent, conversation)) throw new ApiError(Code.FORBIDDEN);
      if (!counted)
        await limit(
          { limiter: this.support.deps.limiter },
          `support:msg:${id}:agent`,
          SUPPORT_LIMITS.messages,
        );
      if (conversation.state === 'resolved' && !note) throw new ApiError(Code.WRONG_USER_STATUS);
      const taken = conversation.state === 'waiting' && !note;
      if (taken) await repo.setAgent(tx, id, agent.staffId, this.at());
      if (input.attachment)
        await this.support.takeAttachment(tx, agentUploads(agent.staffId), input.attachment, id);
      const row = await repo.insertMessage(tx, {
        conversationId: id,
        author: 'agent',
        staffId: agent.staffId,
        private: note,
        body: input.body,
        attachment: input.attachment ?? null,
        event: null,
        at: this.at(),
      });
      return { row, conversation, taken };
    });
    const message = await this.support.announce(row, clientId);
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
