import {
  SUPPORT_VISITOR_HEADER,
  type SupportClientFrame,
  type SupportConversation,
  type SupportHistory,
  type SupportMessage,
  type SupportServerFrame,
  supportFileUrl,
} from '@swx/contract';

/**
 * The service page's connection: the chat's calls (the app's session token, or a visitor token
 * kept in this page's storage) and its websocket, reconnected when it drops.
 */
const API = '/swx/customer';
const VISITOR_KEY = 'support.visitor';

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export type Who = { token: string | null; visitor: string | null };

/** The app's session token (same origin: the app keeps it under `token`), else this page's visitor token. */
export function whoIsHere(): Who {
  const signedIn = stored('isLogin') === 'true' ? stored('token') : null;
  return { token: signedIn, visitor: signedIn ? null : stored(VISITOR_KEY) };
}

export class ApiCallError extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`support call failed with ${code}`);
    this.code = code;
  }
}

export async function call<T>(
  who: Who,
  language: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': language, ...whoHeaders(who) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(API + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { code: number; data: T };
  if (envelope.code !== 200) throw new ApiCallError(envelope.code);
  return envelope.data;
}

export async function startVisitor(email: string, language: string): Promise<Who> {
  const { visitorToken } = await call<{ visitorToken: string }>(
    { token: null, visitor: null },
    language,
    'POST',
    '/support/visitor',
    { email },
  );
  try {
    localStorage.setItem(VISITOR_KEY, visitorToken);
  } catch {
    // Storage blocked: the conversation lasts this visit.
  }
  return { token: null, visitor: visitorToken };
}

/** The headers that say who is here: the session's token, else the visitor's. */
function whoHeaders(who: Who): Record<string, string> {
  if (who.token) return { authorization: `Bearer ${who.token}` };
  return who.visitor ? { [SUPPORT_VISITOR_HEADER]: who.visitor } : {};
}

/** A picture or a PDF for the next message: checked by the server, which answers its id. */
export async function uploadAttachment(who: Who, file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const response = await fetch(`${API}/support/attachment`, {
    method: 'POST',
    headers: whoHeaders(who),
    body: form,
  });
  const envelope = (await response.json()) as { code: number; data: { id: string } };
  if (envelope.code !== 200) throw new ApiCallError(envelope.code);
  return envelope.data.id;
}

/** An attachment of this conversation, fetched with who is here, as an object URL and its type. */
export async function attachmentUrl(who: Who, id: string): Promise<{ url: string; pdf: boolean }> {
  const response = await fetch(supportFileUrl(id), { headers: whoHeaders(who) });
  if (!response.ok) throw new ApiCallError(response.status);
  const blob = await response.blob();
  return { url: URL.createObjectURL(blob), pdf: blob.type === 'application/pdf' };
}

export type ChatEvents = {
  ready(agentsOnline: boolean): void;
  message(message: SupportMessage, clientId?: string): void;
  typing(): void;
  receipts(conversationId: number, delivered: number, read: number): void;
  changed(conversationId: number): void;
  presence(agentsOnline: boolean): void;
  failed(code: number, clientId?: string): void;
  closed(): void;
};

/** The websocket: hello, then frames both ways; it comes back after a drop and joins again. */
export class ChatSocket {
  private socket: WebSocket | null = null;
  private joined = new Set<number>();
  private retry = 500;
  private readonly who: Who;
  private readonly on: ChatEvents;

  constructor(who: Who, on: ChatEvents) {
    this.who = who;
    this.on = on;
  }

  connect(): void {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/support/ws`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retry = 500;
      this.raw({
        t: 'hello',
        as: 'customer',
        ...(this.who.token ? { token: this.who.token } : {}),
        ...(this.who.visitor ? { visitor: this.who.visitor } : {}),
      });
      for (const id of this.joined) this.raw({ t: 'join', conversationId: id });
    });
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', () => {
      this.on.closed();
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 15_000);
    });
  }

  private receive(text: string): void {
    const frame = JSON.parse(text) as SupportServerFrame;
    switch (frame.t) {
      case 'ready':
        this.on.ready(frame.agentsOnline);
        return;
      case 'message':
        this.on.message(frame.message, frame.clientId);
        return;
      case 'typing':
        this.on.typing();
        return;
      case 'receipts':
        this.on.receipts(frame.conversationId, frame.delivered, frame.read);
        return;
      case 'conversation':
        this.on.changed(frame.conversationId);
        return;
      case 'presence':
        this.on.presence(frame.agentsOnline);
        return;
      case 'error':
        this.on.failed(frame.code, frame.clientId);
        return;
    }
  }

  private raw(frame: SupportClientFrame): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  join(conversationId: number): void {
    this.joined.add(conversationId);
    this.raw({ t: 'join', conversationId });
  }

  send(frame: SupportClientFrame): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }
}

export type { SupportConversation, SupportHistory, SupportMessage };
