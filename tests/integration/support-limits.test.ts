import { Code } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { type ChatClient, chatSocket } from '../support/chat.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

const ADMIN = 'admin.limits@staff.swx.test';
const AGENT = 'agent.limits@staff.swx.test';

/** Each agent's limit of conversations at once: set by staff of the duty, audited, and followed by assignment. */
describe('support agents’ limits', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let passwords: Record<string, string>;
  let adminToken: string;
  let agentToken: string;
  let agentId: number;
  const customers: Session[] = [];
  const sockets: ChatClient[] = [];
  useServer(
    {
      staff: [
        { email: ADMIN, role: 'admin' },
        { email: AGENT, role: 'support' },
      ],
    },
    (s) => {
      ({ server, inbox } = s);
      passwords = s.oneTimePasswords;
    },
  );
  beforeAll(async () => {
    adminToken = (await enrolStaffByApi(server.baseUrl, ADMIN, passwords[ADMIN] ?? '')).token;
    const agent = await enrolStaffByApi(server.baseUrl, AGENT, passwords[AGENT] ?? '');
    agentToken = agent.token;
    agentId = agent.staff.id;
    for (const name of ['cleo', 'dora', 'emil'])
      customers.push(await registerByApi(server, inbox, `${name}.limits@example.com`));
  }, 120_000);
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  const stateOf = async (customer: Session) =>
    (await customerApi(server, customer.token).ok('getMySupportConversation'))?.conversation;

  it('lets staff of the duty set it, audits it, and assigns by it', async () => {
    const admin = staffApi(server.baseUrl, adminToken);
    const agent = staffApi(server.baseUrl, agentToken);
    // Every agent of the duty is listed, with the default, before they ever came online.
    const listed = await admin.ok('supportAgents');
    expect(listed.find((a) => a.id === agentId)).toMatchObject({
      limit: 5,
      online: false,
      limitSetBy: null,
      limitSetAt: null,
    });
    // An agent does not set limits; out of range is bad input; a non-agent is no target.
    expect((await agent.call('setSupportAgentLimit', { id: String(agentId), limit: 9 })).code).toBe(
      Code.FORBIDDEN,
    );
    expect((await admin.call('setSupportAgentLimit', { id: String(agentId), limit: 0 })).code).toBe(
      Code.INVALID_INPUT,
    );
    expect((await admin.call('setSupportAgentLimit', { id: String(agentId), limit: 51 })).code).toBe(
      Code.INVALID_INPUT,
    );
    expect((await admin.call('setSupportAgentLimit', { id: '999999', limit: 2 })).code).toBe(
      Code.INVALID_INPUT,
    );

    const set = await admin.ok('setSupportAgentLimit', { id: String(agentId), limit: 1 });
    expect(set).toMatchObject({ id: agentId, limit: 1, limitSetBy: ADMIN });
    const audit = await admin.ok('auditLog', { action: 'support.agent_limit' });
    expect(audit.rows[0]).toMatchObject({
      action: 'support.agent_limit',
      subject: `staff:${agentId}`,
      actorStaff: { email: ADMIN },
    });
    expect(JSON.parse(audit.rows[0]?.data ?? '{}')).toEqual({ limit: 1, previous: 5 });

    // The agent comes online with a limit of 1: the first conversation is theirs, the others wait.
    const online = await chatSocket(server, { as: 'agent', token: agentToken });
    sockets.push(online);
    for (const customer of customers) {
      await customerApi(server, customer.token).ok('openSupportConversation', { language: 'en' });
    }
    const [cleo, dora, emil] = customers as [Session, Session, Session];
    expect(await stateOf(cleo)).toMatchObject({ state: 'open', agentName: 'agent.limits' });
    expect(await stateOf(dora)).toMatchObject({ state: 'waiting', queuePlace: 1 });
    expect(await stateOf(emil)).toMatchObject({ state: 'waiting', queuePlace: 2 });

    // Raised to 2: the oldest waiting is assigned at once; the next still waits.
    expect((await admin.ok('setSupportAgentLimit', { id: String(agentId), limit: 2 })).open).toBe(2);
    expect(await stateOf(dora)).toMatchObject({ state: 'open', agentName: 'agent.limits' });
    expect(await stateOf(emil)).toMatchObject({ state: 'waiting', queuePlace: 1 });
  });
});
