import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_API_BASE, Code, SUPPORT_LIMITS } from '@swx/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createMemoryBus } from '../../platform/bus.ts';
import { ApiError, installApiConventions } from '../../platform/http.ts';
import { createMailer, type MailMessage } from '../../platform/mail.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { FileStorage } from '../../platform/storage.ts';
import {
  createTestContext,
  recording,
  type TestContext,
  type TestCustomer,
  type TestStaff,
} from '../../test/context.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { UploadsService } from '../uploads/uploads.service.ts';
import { SupportHub } from './support.hub.ts';
import { supportRoutes } from './support.routes.ts';
import { type SupportParty, SupportService } from './support.service.ts';
import { SupportDesk } from './support.staff.ts';

/**
 * The chat on the real database: round-robin assignment to online agents below their limit, the
 * oldest waiting first, the queue place; who may read and write what; the per-conversation rate
 * limit; a rating only after resolution; the transcript append-only; mail when nobody is online.
 */
describe(`support chat on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let support: SupportService;
  let desk: SupportDesk;
  let app: FastifyInstance;
  let agentA: TestStaff;
  let agentB: TestStaff;
  let admin: TestStaff;
  let compliance: TestStaff;
  const sent: MailMessage[] = [];
  const clock = { now: Date.parse('2027-05-03T08:00:00Z') };
  const tick = (ms = 1000) => {
    clock.now += ms;
  };
  const party = (c: TestCustomer): SupportParty => ({ kind: 'customer', userId: c.id });
  const codeOf = async (work: Promise<unknown>) => {
    try {
      await work;
      return Code.OK;
    } catch (error) {
      if (error instanceof ApiError) return error.apiCode;
      throw error;
    }
  };
  /** A customer opens a conversation and writes in it, a second later than the one before. */
  const writes = async (text = 'hello') => {
    tick();
    const customer = await ctx.customer();
    const { conversation } = await support.open(party(customer), { language: 'en' });
    await support.sendAsCustomer(party(customer), conversation.id, { body: text });
    return { customer, id: conversation.id };
  };
  const conversation = (c: { customer: TestCustomer; id: number }) =>
    support.history(party(c.customer), c.id).then((h) => h.conversation);

  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db);
    support = new SupportService({
      db: t.db,
      bus: createMemoryBus(),
      mailer: recording(
        createMailer({ from: 'SWX <s@swx.test>', dataDir: mkdtempSync(join(tmpdir(), 'swx-sup-')) }),
        sent,
      ),
      limiter: createMemoryRateLimiter(),
      customers: new CustomerDirectory(t.db),
      staff: ctx.staff,
      uploads: new UploadsService({
        db: t.db,
        storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-supu-'))),
      }),
      publicUrl: 'https://swx.test',
      now: () => clock.now,
    });
    desk = new SupportDesk(support, ctx.staff, ctx.audit);
    // One after the other: A's id is below B's, so A is first in the round robin.
    agentA = await ctx.staffMember('support');
    agentB = await ctx.staffMember('support');
    admin = await ctx.staffMember('admin');
    compliance = await ctx.staffMember('compliance');
    app = Fastify({ logger: false });
    installApiConventions(app, ctx.identity.resolveSession);
    const hub = new SupportHub({
      support,
      desk,
      resolveCustomer: ctx.identity.resolveSession,
      resolveStaff: ctx.staff.resolveSession,
    });
    supportRoutes(app, { support, desk, hub, staff: ctx.staff });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
  });
  beforeEach(async () => {
    // Each test starts with nobody online and nothing waiting or open.
    await t.db.query(
      "UPDATE support_conversations SET state = 'resolved', resolved_at = now() WHERE state <> 'resolved'",
    );
    await t.db.query('UPDATE support_agents SET online_until = NULL, max_open = 5');
    sent.length = 0;
  });

  it('assigns round-robin to the agents online, the oldest waiting first, within each limit, and says the queue place', async () => {
    await support.agentOnline(agentA.id);
    await support.agentOnline(agentB.id);
    await desk.setLimit(admin.session, agentA.id, 2);
    await desk.setLimit(admin.session, agentB.id, 1);
    const first = await writes();
    const second = await writes();
    const third = await writes();
    const fourth = await writes();
    const fifth = await writes();
    const agents = await Promise.all(
      [first, second, third, fourth, fifth].map(async (c) => (await conversation(c)).agentName),
    );
    const nameOf = (s: TestStaff) => s.email.split('@')[0];
    // A (the longest unassigned), B, A; then both are full.
    expect(agents.slice(0, 3)).toEqual([nameOf(agentA), nameOf(agentB), nameOf(agentA)]);
    expect(agents.slice(3)).toEqual([null, null]);
    expect((await conversation(fourth)).queuePlace).toBe(1);
    expect((await conversation(fifth)).queuePlace).toBe(2);
    expect((await desk.inbox(agentA.session, 'waiting')).map((i) => i.id)).toEqual([fourth.id, fifth.id]);

    // B resolves theirs: the oldest waiting goes to B, the other moves up.
    await desk.resolve(agentB.session, second.id);
    expect((await conversation(fourth)).agentName).toBe(nameOf(agentB));
    expect((await conversation(fifth)).queuePlace).toBe(1);
  });

  it('assigns nobody who is offline: the page is told, the conversation is by mail and the answer is mailed', async () => {
    expect(await support.status()).toEqual({ agentsOnline: false });
    const waiting = await writes('Where is my deposit?');
    const before = await conversation(waiting);
    expect(before).toMatchObject({ state: 'waiting', byMail: true, queuePlace: 1, agentName: null });

    await support.agentOnline(agentA.id);
    expect((await conversation(waiting)).agentName).toBe(agentA.email.split('@')[0]);
    await desk.send(agentA.session, waiting.id, { body: 'It arrived at 10:02.' });
    expect(sent.map((m) => m.to)).toEqual([waiting.customer.email]);
    expect(sent[0]?.text).toContain('It arrived at 10:02.');

    // Presence lapses without the inbox's heartbeat.
    tick(SUPPORT_LIMITS.presenceSeconds * 1000 + 1);
    expect(await support.status()).toEqual({ agentsOnline: false });
    const later = await writes();
    expect((await conversation(later)).state).toBe('waiting');
  });

  it("refuses another customer's conversation as not found, keeps notes from the customer, and lets agents write only in their own", async () => {
    await support.agentOnline(agentA.id);
    const ada = await writes('<script>alert(1)</script>');
    const bob = await ctx.customer();
    const other = party(bob);
    expect(await codeOf(support.history(other, ada.id))).toBe(Code.NOT_FOUND);
    expect(await codeOf(support.sendAsCustomer(other, ada.id, { body: 'hi' }))).toBe(Code.NOT_FOUND);
    expect(await codeOf(support.rate(other, ada.id, 5))).toBe(Code.NOT_FOUND);

    await desk.send(agentA.session, ada.id, { body: 'checking the ledger', private: true });
    await desk.send(agentA.session, ada.id, { body: 'Found it.' });
    const seen = await support.history(party(ada.customer), ada.id);
    expect(seen.messages.filter((m) => m.author !== 'system').map((m) => m.body)).toEqual([
      '<script>alert(1)</script>',
      'Found it.',
    ]);
    expect(
      (await desk.detail(ada.id)).messages.some((m) => m.private && m.body === 'checking the ledger'),
    ).toBe(true);

    // B is not its agent; an admin may write; compliance may not open the inbox at all.
    expect(await codeOf(desk.send(agentB.session, ada.id, { body: 'mine now' }))).toBe(Code.FORBIDDEN);
    expect(await codeOf(desk.resolve(agentB.session, ada.id))).toBe(Code.FORBIDDEN);
    expect(await codeOf(desk.send(admin.session, ada.id, { body: 'An admin here.' }))).toBe(Code.OK);
    const refused = await app.inject({
      method: 'GET',
      url: `${ADMIN_API_BASE}/support/inbox`,
      headers: { authorization: `Bearer ${compliance.token}` },
    });
    expect((refused.json() as { code: number }).code).toBe(Code.FORBIDDEN);
    const mine = await app.inject({
      method: 'GET',
      url: `/swx/customer/support/conversation/${ada.id}`,
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect((mine.json() as { code: number }).code).toBe(Code.NOT_FOUND);
  });

  it("limits messages per conversation and side, so nobody else can use up the owner's allowance", async () => {
    await support.agentOnline(agentA.id);
    const ada = await writes();
    const bob = await writes();
    for (let i = 1; i < SUPPORT_LIMITS.messages.limit; i += 1)
      await support.sendAsCustomer(party(bob.customer), bob.id, { body: `message ${i}` });
    expect(await codeOf(support.sendAsCustomer(party(bob.customer), bob.id, { body: 'one more' }))).toBe(
      Code.TOO_MANY_REQUESTS,
    );
    // Bob's flood counts against Bob's conversation only; the agent's answers count apart.
    expect(await codeOf(support.sendAsCustomer(party(ada.customer), ada.id, { body: 'still here' }))).toBe(
      Code.OK,
    );
    expect(await codeOf(desk.send(agentA.session, bob.id, { body: 'Please wait a minute.' }))).toBe(Code.OK);
  });

  it('takes a rating only after resolution, once, and a new message reopens the conversation into the queue', async () => {
    await support.agentOnline(agentA.id);
    const ada = await writes();
    const me = party(ada.customer);
    expect(await codeOf(support.rate(me, ada.id, 5))).toBe(Code.WRONG_USER_STATUS);
    await desk.resolve(agentA.session, ada.id);
    // A staff decision: audited with its agent and conversation.
    const audited = await t.db.query<{ actor: string }>(
      "SELECT actor FROM audit_log WHERE action = 'support.resolved' AND subject = $1",
      [`conversation:${ada.id}`],
    );
    expect(audited.map((a) => a.actor)).toEqual([`staff:${agentA.session.staffId}`]);
    expect((await support.rate(me, ada.id, 4)).rating).toBe(4);
    expect(await codeOf(support.rate(me, ada.id, 5))).toBe(Code.WRONG_USER_STATUS);
    const bad = await app.inject({
      method: 'POST',
      url: `/swx/customer/support/conversation/${ada.id}/rate`,
      headers: { authorization: `Bearer ${ada.customer.token}` },
      payload: { rating: 6 },
    });
    expect((bad.json() as { code: number }).code).toBe(Code.INVALID_INPUT);

    await support.sendAsCustomer(me, ada.id, { body: 'One more question' });
    const after = await support.history(me, ada.id);
    expect(after.conversation.rating).toBeNull();
    expect(after.messages.map((m) => m.event).filter(Boolean)).toEqual([
      'assigned',
      'resolved',
      'rated',
      'reopened',
      'assigned',
    ]);
  });

  it("writes a joined customer's line in one statement only while it is theirs and not resolved", async () => {
    await support.agentOnline(agentA.id);
    const ada = await writes('first');
    const joined = (c: TestCustomer, id: number, body: string) =>
      support.sendAsCustomer(party(c), id, { body }, undefined, true);
    expect((await joined(ada.customer, ada.id, 'second')).body).toBe('second');
    // Someone else's id, even claimed as joined, finds nothing (the checked path says so).
    const bob = await ctx.customer();
    expect(await codeOf(joined(bob, ada.id, 'let me in'))).toBe(Code.NOT_FOUND);
    // Resolved: the line reopens the conversation into the queue, as the checked path does.
    await desk.resolve(agentA.session, ada.id);
    tick();
    await joined(ada.customer, ada.id, 'again');
    const lines = (await support.history(party(ada.customer), ada.id)).messages;
    expect(lines.map((m) => m.event ?? m.body)).toEqual([
      'assigned',
      'first',
      'second',
      'resolved',
      'again',
      'reopened',
      'assigned',
    ]);
  });

  it('commits the lines of one turn together, in order, each answered with its own line or refused alone', async () => {
    await support.agentOnline(agentA.id);
    const a = await writes('a0');
    const b = await writes('b0');
    const bob = await ctx.customer();
    const customerLine = (owner: number, conversationId: number, body: string) =>
      support.lines.append({ author: 'customer', owner: { userId: owner }, conversationId, body });
    const [first, second, other, intruder, notTheirs] = await Promise.all([
      customerLine(a.customer.id, a.id, 'same'),
      customerLine(a.customer.id, a.id, 'same'),
      customerLine(b.customer.id, b.id, 'b1'),
      customerLine(bob.id, a.id, 'let me in'),
      support.lines.append({
        author: 'agent',
        staffId: agentB.id,
        anyAgent: false,
        private: true,
        conversationId: a.id,
        body: 'not my conversation',
      }),
    ]);
    expect([intruder, notTheirs]).toEqual([null, null]);
    expect(first?.id).toBeLessThan(second?.id ?? 0);
    expect([first?.conversationId, second?.conversationId, other?.conversationId]).toEqual([
      a.id,
      a.id,
      b.id,
    ]);
    expect(other).toMatchObject({ author: 'customer', body: 'b1', byMail: false, language: 'en' });
    const lines = (await desk.detail(a.id)).messages.filter((m) => m.author !== 'system').map((m) => m.body);
    expect(lines).toEqual(['a0', 'same', 'same']);
  });

  it('keeps the transcript append-only', async () => {
    const ada = await writes('keep me');
    await expect(
      t.db.query('UPDATE support_messages SET body = $1 WHERE conversation_id = $2', ['gone', ada.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.db.query('DELETE FROM support_messages WHERE conversation_id = $1', [ada.id]),
    ).rejects.toThrow(/append-only/);
  });

  it('lets a visitor with an e-mail address write, and nobody else read it', async () => {
    const { visitorToken } = await support.startVisitor('visitor@example.test', '10.9.9.9');
    const visitor = await support.visitorOf(visitorToken);
    if (!visitor) throw new Error('no visitor');
    const { conversation: opened } = await support.open(visitor, { language: 'ar' });
    await support.sendAsCustomer(visitor, opened.id, { body: 'مرحبا' });
    expect(opened.byMail).toBe(true);
    const stranger = await support.visitorOf(
      (await support.startVisitor('x@example.test', '10.9.9.9')).visitorToken,
    );
    if (!stranger) throw new Error('no visitor');
    expect(await codeOf(support.history(stranger, opened.id))).toBe(Code.NOT_FOUND);
    expect(await support.visitorOf('not-a-token')).toBeNull();
  });

  it('counts nobody online whose socket closed while its hello was still being resolved', async () => {
    // Real sockets (ws, on a port of its own); the hub's staff sessions resolve when the test says:
    // the socket closes in between.
    let resolveStaff: ((session: TestStaff['session']) => void) | undefined;
    const late = new SupportHub({
      support,
      desk,
      resolveCustomer: ctx.identity.resolveSession,
      resolveStaff: () =>
        new Promise((resolve) => {
          resolveStaff = resolve;
        }),
    });
    const online = new SupportHub({
      support,
      desk,
      resolveCustomer: ctx.identity.resolveSession,
      resolveStaff: async () => agentA.session,
    });
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    const closed: Promise<void>[] = [];
    let hub = late;
    server.on('connection', (socket) => {
      hub.add(socket);
      closed.push(new Promise((done) => socket.once('close', () => done())));
    });
    await new Promise((listening) => server.once('listening', listening));
    const { port } = server.address() as AddressInfo;
    const connect = async () => {
      const client = new WebSocket(`ws://127.0.0.1:${port}`);
      const frames: unknown[] = [];
      client.on('message', (data) => frames.push(JSON.parse(String(data))));
      await new Promise((ready) => client.once('open', ready));
      client.send(JSON.stringify({ t: 'hello', as: 'agent', token: 'staff' }));
      return { client, frames };
    };
    try {
      const first = await connect();
      await vi.waitFor(() => expect(resolveStaff).not.toBe(undefined));
      first.client.close();
      await closed[0];
      resolveStaff?.(agentA.session);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Still offline: the late session added no agent, no heartbeat and no presence.
      expect(await support.status()).toEqual({ agentsOnline: false });
      expect(first.frames).toEqual([]);
      const ada = await writes('anyone there?');
      expect((await conversation(ada)).agentName).toBeNull();

      // The same hello on a socket that stays open makes the agent online.
      hub = online;
      const second = await connect();
      await vi.waitFor(() => expect(second.frames).toContainEqual(expect.objectContaining({ t: 'ready' })));
      expect(await support.status()).toEqual({ agentsOnline: true });
      second.client.close();
      await closed[1];
    } finally {
      late.stop();
      online.stop();
      await new Promise((done) => server.close(() => done(undefined)));
    }
  });
});
