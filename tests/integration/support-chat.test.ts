import { Code } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { type ChatClient, chatSocket as chat } from '../support/chat.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the support chat on two nodes sharing PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let inbox: Inbox;
  const nodes: RunningServer[] = [];
  let ada: Session;
  let bob: Session;
  let agentToken: string;
  const sockets: ChatClient[] = [];

  beforeAll(async () => {
    [database, inbox] = await Promise.all([
      openTestDatabase({ kind: 'postgres', migrated: false }),
      startInbox(),
    ]);
    const env = {
      DATABASE_URL: database.url ?? '',
      SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
      REDIS_URL,
      FEED: 'off',
    };
    nodes.push(await startServer({ ...env, NODE_ID: 'support-a' }));
    nodes.push(await startServer({ ...env, NODE_ID: 'support-b' }));
    const [a, b] = nodes as [RunningServer, RunningServer];
    const password = createStaffByCli(b.dataDir, 'agent.chat@staff.swx.test', 'support', {
      DATABASE_URL: env.DATABASE_URL,
    });
    agentToken = (await enrolStaffByApi(b.baseUrl, 'agent.chat@staff.swx.test', password)).token;
    ada = await registerByApi(a, inbox, 'ada.chat@example.com');
    bob = await registerByApi(a, inbox, 'bob.chat@example.com');
  }, 240_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await inbox?.close();
    await database?.close();
  });

  it('carries a message each way between a customer on node A and an agent on node B, as text, notes kept back', async () => {
    const [a, b] = nodes as [RunningServer, RunningServer];
    const agent = await chat(b, { as: 'agent', token: agentToken });
    sockets.push(agent);
    expect(agent.frames[0]).toMatchObject({ t: 'ready', as: 'agent' });
    const customer = await chat(a, { as: 'customer', token: ada.token });
    sockets.push(customer);
    expect(customer.frames[0]).toEqual({ t: 'ready', as: 'customer', agentsOnline: true });

    const opened = await customerApi(a, ada.token).ok('openSupportConversation', { language: 'en' });
    const id = opened.conversation.id;
    expect(opened.conversation).toMatchObject({ state: 'open', agentName: 'agent.chat', queuePlace: null });
    customer.send({ t: 'join', conversationId: id });

    const script = '<script>alert("x")</script> & <b>bold</b>';
    customer.send({ t: 'send', conversationId: id, clientId: 'c1', body: script });
    const atAgent = await agent.next(
      (f) => f.t === 'message' && f.message.author === 'customer',
      'the customer line on B',
    );
    expect(atAgent).toMatchObject({
      t: 'message',
      clientId: 'c1',
      message: { conversationId: id, body: script },
    });

    agent.send({ t: 'typing', conversationId: id });
    await customer.next((f) => f.t === 'typing' && f.author === 'agent', 'typing on A');
    agent.send({
      t: 'send',
      conversationId: id,
      clientId: 'n1',
      body: 'private: check ledger',
      private: true,
    });
    agent.send({ t: 'send', conversationId: id, clientId: 'r1', body: 'Hello Ada, looking now.' });
    const reply = await customer.next(
      (f) => f.t === 'message' && f.message.author === 'agent',
      'the reply on A',
    );
    expect(reply).toMatchObject({
      message: { body: 'Hello Ada, looking now.', private: false, agentName: 'agent.chat' },
    });
    await agent.next((f) => f.t === 'message' && f.clientId === 'r1', 'the reply echoed on B');
    expect(customer.frames.some((f) => f.t === 'message' && f.message.private)).toBe(false);

    // Read on A reaches the agent on B; the transcript keeps the script as text.
    if (reply.t !== 'message') throw new Error('not a message');
    customer.send({ t: 'read', conversationId: id, messageId: reply.message.id });
    await agent.next(
      (f) => f.t === 'receipts' && f.side === 'customer' && f.read === reply.message.id,
      'the read receipt on B',
    );
    const history = await customerApi(b, ada.token).ok('getSupportConversation', { id: String(id) });
    expect(history.messages.map((m) => m.body)).toContain(script);
    expect(history.messages.some((m) => m.private)).toBe(false);
    const staffView = await staffApi(b.baseUrl, agentToken).ok('supportConversation', { id: String(id) });
    expect(staffView.messages.filter((m) => m.private).map((m) => m.body)).toEqual(['private: check ledger']);
  });

  it("refuses another customer's conversation, by call and on the socket", async () => {
    const [a, b] = nodes as [RunningServer, RunningServer];
    const mine = await customerApi(a, ada.token).ok('getMySupportConversation');
    const id = mine?.conversation.id ?? 0;
    expect((await customerApi(b, bob.token).call('getSupportConversation', { id: String(id) })).code).toBe(
      Code.NOT_FOUND,
    );
    expect(
      (await customerApi(b, bob.token).call('rateSupportConversation', { id: String(id), rating: 5 })).code,
    ).toBe(Code.NOT_FOUND);
    const intruder = await chat(b, { as: 'customer', token: bob.token });
    sockets.push(intruder);
    intruder.send({ t: 'join', conversationId: id });
    intruder.send({ t: 'send', conversationId: id, clientId: 'x1', body: 'let me in' });
    const refused = await intruder.next((f) => f.t === 'error' && f.clientId === 'x1', 'the refusal');
    const notJoined = await intruder.next(
      (f) => f.t === 'error' && f.clientId === undefined,
      'the join refused',
    );
    expect([refused, notJoined]).toEqual([
      { t: 'error', code: Code.NOT_FOUND, clientId: 'x1' },
      { t: 'error', code: Code.NOT_FOUND },
    ]);
    expect(intruder.frames.some((f) => f.t === 'message')).toBe(false);
    // A customer token is no agent: the agent's hello is refused.
    const posing = await chat(a, { as: 'agent', token: bob.token });
    sockets.push(posing);
    expect(posing.frames[0]).toEqual({ t: 'error', code: Code.SESSION_EXPIRED });
  });
});
