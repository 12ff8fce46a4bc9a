import {
  Code,
  STAFF_DUTIES,
  SUPPORT_LIMITS,
  type SupportClientFrame,
  type SupportServerFrame,
  supportClientFrame,
} from '@swx/contract';
import type { WebSocket } from 'ws';
import { CodedError, type CustomerSession } from '../../platform/http.ts';
import type { StaffSession } from '../staff/staff.service.ts';
import {
  SUPPORT_TOPIC,
  type SupportEvent,
  type SupportParty,
  type SupportService,
} from './support.service.ts';
import type { SupportDesk } from './support.staff.ts';

type Client = {
  socket: WebSocket;
  party: SupportParty | null;
  agent: StaffSession | null;
  rooms: Set<number>;
  lastTyping: number;
  /**
   * The frames of one socket about one conversation are handled one after the other, in the order
   * they came, after its hello; frames about different conversations (an agent's many) go on
   * side by side, so one conversation's write never waits for another's.
   */
  hello: Promise<void>;
  queues: Map<number, Promise<void>>;
  /** Set when the socket closed: a hello still resolving its session then adds nothing (else it would count as online forever). */
  closed?: true;
};

export type SupportHubDeps = {
  support: SupportService;
  desk: SupportDesk;
  resolveCustomer: (token: string) => Promise<CustomerSession | null>;
  resolveStaff: (token: string) => Promise<StaffSession | null>;
};

const AGENT_ROLES: readonly string[] = STAFF_DUTIES.supportChat.roles;
/** Typing frames a client may send: one per this many milliseconds; more are dropped. */
const TYPING_EVERY_MS = 1500;

/**
 * The chat's sockets on this node (`/support/ws`). A socket says `hello` first (a customer's or
 * visitor's token, or a staff token of the supportChat duty); a customer `join`s their own
 * conversations. Every change reaches this node through the bus, and this hub hands it to its
 * sockets: customers get their rooms' public lines, agents everything.
 */
export class SupportHub {
  private readonly rooms = new Map<number, Set<Client>>();
  private readonly agents = new Set<Client>();
  private readonly customers = new Set<Client>();
  private readonly heartbeats = new Map<number, { count: number; timer: NodeJS.Timeout }>();
  private unsubscribe: (() => void) | null = null;

  private readonly deps: SupportHubDeps;

  constructor(deps: SupportHubDeps) {
    this.deps = deps;
  }

  start(): void {
    this.unsubscribe = this.deps.support.deps.bus.subscribe(SUPPORT_TOPIC, (event) =>
      this.deliver(event as SupportEvent),
    );
  }

  stop(): void {
    this.unsubscribe?.();
    for (const { timer } of this.heartbeats.values()) clearInterval(timer);
    this.heartbeats.clear();
  }

  add(socket: WebSocket): void {
    const client: Client = {
      socket,
      party: null,
      agent: null,
      rooms: new Set(),
      lastTyping: 0,
      hello: Promise.resolve(),
      queues: new Map(),
    };
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (binary) return;
      let value: unknown;
      try {
        value = JSON.parse(data.toString());
      } catch {
        return;
      }
      const frame = supportClientFrame.safeParse(value);
      if (!frame.success) return send(client, { t: 'error', code: Code.INVALID_INPUT });
      this.enqueue(client, frame.data);
    });
    socket.on('close', () => this.remove(client));
  }

  /** A frame in its turn: after the hello, and after the earlier frames about the same conversation. */
  private enqueue(client: Client, frame: SupportClientFrame): void {
    const failed = (error: unknown) => {
      const code = error instanceof CodedError && error.apiCode !== null ? error.apiCode : Code.UNKNOWN_ERROR;
      send(client, { t: 'error', code, ...('clientId' in frame ? { clientId: frame.clientId } : {}) });
    };
    if (frame.t === 'hello') {
      client.hello = client.hello.then(() => this.handle(client, frame)).catch(failed);
      return;
    }
    const id = frame.conversationId;
    const turn = (client.queues.get(id) ?? client.hello).then(() => this.handle(client, frame)).catch(failed);
    client.queues.set(id, turn);
    void turn.then(() => {
      if (client.queues.get(id) === turn) client.queues.delete(id);
    });
  }

  private async handle(client: Client, frame: SupportClientFrame): Promise<void> {
    if (frame.t === 'hello') return this.hello(client, frame);
    if (!client.party && !client.agent) throw new CodedError('no hello', Code.SESSION_EXPIRED);
    const { support, desk } = this.deps;
    switch (frame.t) {
      case 'join':
        if (!client.party) throw new CodedError('agents need no join', Code.INVALID_INPUT);
        await support.mine(client.party, frame.conversationId);
        this.join(client, frame.conversationId);
        return;
      case 'send':
        if (client.agent)
          await desk.send(
            client.agent,
            frame.conversationId,
            {
              body: frame.body,
              private: frame.private,
              ...(frame.attachment ? { attachment: frame.attachment } : {}),
            },
            frame.clientId,
          );
        else if (client.party) {
          const input = { body: frame.body, ...(frame.attachment ? { attachment: frame.attachment } : {}) };
          // A joined room is known to be the sender's: the common line takes one statement.
          const joined = client.rooms.has(frame.conversationId);
          await support.sendAsCustomer(client.party, frame.conversationId, input, frame.clientId, joined);
        }
        return;
      case 'typing':
        if (Date.now() - client.lastTyping < TYPING_EVERY_MS) return;
        if (client.party && !client.rooms.has(frame.conversationId)) return;
        client.lastTyping = Date.now();
        support.publish({
          kind: 'typing',
          conversationId: frame.conversationId,
          author: client.agent ? 'agent' : 'customer',
        });
        return;
      default: {
        if (client.party && !client.rooms.has(frame.conversationId))
          throw new CodedError('not joined', Code.NOT_FOUND);
        const read = frame.t === 'read' ? frame.messageId : 0;
        await support.receipts(
          client.agent ? 'agent' : 'customer',
          frame.conversationId,
          frame.messageId,
          read,
        );
      }
    }
  }

  private async hello(client: Client, frame: Extract<SupportClientFrame, { t: 'hello' }>): Promise<void> {
    if (client.party || client.agent) return;
    const { support } = this.deps;
    if (frame.as === 'agent') {
      const session = frame.token ? await this.deps.resolveStaff(frame.token) : null;
      if (!session) throw new CodedError('no staff session', Code.SESSION_EXPIRED);
      if (!AGENT_ROLES.includes(session.role)) throw new CodedError('not an agent', Code.FORBIDDEN);
      if (client.closed) return;
      client.agent = session;
      this.agents.add(client);
      this.beat(session.staffId);
      await support.agentOnline(session.staffId);
    } else {
      const customer = frame.token ? await this.deps.resolveCustomer(frame.token) : null;
      const party: SupportParty | null = customer
        ? { kind: 'customer', userId: customer.userId }
        : frame.visitor
          ? await support.visitorOf(frame.visitor)
          : null;
      if (!party) throw new CodedError('no customer or visitor', Code.SESSION_EXPIRED);
      if (client.closed) return;
      client.party = party;
      this.customers.add(client);
    }
    send(client, { t: 'ready', as: frame.as, agentsOnline: (await support.status()).agentsOnline });
  }

  /** Presence: while a staff member has an inbox open on this node, it says so on a timer. */
  private beat(staffId: number): void {
    const held = this.heartbeats.get(staffId);
    if (held) {
      held.count += 1;
      return;
    }
    const timer = setInterval(() => {
      this.deps.support.agentOnline(staffId).catch(() => undefined);
    }, SUPPORT_LIMITS.heartbeatSeconds * 1000);
    timer.unref();
    this.heartbeats.set(staffId, { count: 1, timer });
  }

  private join(client: Client, conversationId: number): void {
    client.rooms.add(conversationId);
    let room = this.rooms.get(conversationId);
    if (!room) {
      room = new Set();
      this.rooms.set(conversationId, room);
    }
    room.add(client);
  }

  private remove(client: Client): void {
    client.closed = true;
    this.customers.delete(client);
    for (const id of client.rooms) {
      const room = this.rooms.get(id);
      room?.delete(client);
      if (room?.size === 0) this.rooms.delete(id);
    }
    if (!client.agent) return;
    this.agents.delete(client);
    const staffId = client.agent.staffId;
    const held = this.heartbeats.get(staffId);
    if (held && --held.count === 0) {
      clearInterval(held.timer);
      this.heartbeats.delete(staffId);
      this.deps.support.agentOffline(staffId).catch(() => undefined);
    }
  }

  /** An event from the bus (this node's or another's) to the sockets it concerns. */
  private deliver(event: SupportEvent): void {
    const room = (id: number) => this.rooms.get(id) ?? new Set<Client>();
    const toAgents = (frame: SupportServerFrame) => {
      for (const client of this.agents) send(client, frame);
    };
    const toRoom = (id: number, frame: SupportServerFrame) => {
      for (const client of room(id)) send(client, frame);
    };
    switch (event.kind) {
      case 'message': {
        const frame: SupportServerFrame = {
          t: 'message',
          message: event.message,
          ...(event.clientId ? { clientId: event.clientId } : {}),
        };
        toAgents(frame);
        if (!event.message.private) toRoom(event.message.conversationId, frame);
        return;
      }
      case 'typing': {
        const frame: SupportServerFrame = {
          t: 'typing',
          conversationId: event.conversationId,
          author: event.author,
        };
        if (event.author === 'customer') toAgents(frame);
        else toRoom(event.conversationId, frame);
        return;
      }
      case 'receipts': {
        const { kind: _kind, ...rest } = event;
        if (event.side === 'agent') toRoom(event.conversationId, { t: 'receipts', ...rest });
        else toAgents({ t: 'receipts', ...rest });
        return;
      }
      case 'conversation':
        toAgents({ t: 'conversation', conversationId: event.conversationId });
        toRoom(event.conversationId, { t: 'conversation', conversationId: event.conversationId });
        return;
      case 'presence':
        for (const client of this.customers)
          send(client, { t: 'presence', agentsOnline: event.agentsOnline });
    }
  }
}

function send(client: Client, frame: SupportServerFrame): void {
  if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(frame));
}
