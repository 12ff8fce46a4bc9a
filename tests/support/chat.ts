import { SUPPORT_WS_PATH, type SupportServerFrame } from '@swx/contract';
import WebSocket from 'ws';
import type { RunningServer } from './server.ts';

/** A chat socket that keeps every frame it was sent, and waits for the one a test expects. */
export type ChatClient = {
  frames: SupportServerFrame[];
  send(frame: unknown): void;
  next(match: (f: SupportServerFrame) => boolean, what: string): Promise<SupportServerFrame>;
  close(): void;
};

/** Opens `/support/ws` on a node, says `hello` and waits for `ready` (or the refusal). */
export async function chatSocket(
  node: RunningServer | { baseUrl: string },
  hello: Record<string, unknown>,
): Promise<ChatClient> {
  const socket = new WebSocket(`${node.baseUrl.replace('http', 'ws')}${SUPPORT_WS_PATH}`, {
    perMessageDeflate: false,
  });
  const frames: SupportServerFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as SupportServerFrame);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const client: ChatClient = {
    frames,
    send: (frame) => socket.send(JSON.stringify(frame)),
    next: (match, what) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = frames.find(match);
          if (!found) return;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no ${what}; frames: ${JSON.stringify(frames)}`));
        }, 20_000);
        waiters.add(look);
        look();
      }),
    close: () => socket.close(),
  };
  client.send({ t: 'hello', ...hello });
  await client.next((f) => f.t === 'ready' || f.t === 'error', 'ready');
  return client;
}
