import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { keys } from '../query.ts';
import { frameHandler } from './useAgentSocket.ts';

const quiet = { setConnected: () => undefined, setTyping: () => undefined, setLastError: () => undefined };

describe("the agent socket's reloads of the inbox", () => {
  it('loads the list again after a change that came while its first load was under way', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = keys.supportInbox('en', 'mine');
    // The first load read the inbox before the hello assigned conversation 7, and answers after its frame.
    let answerFirst: (ids: number[]) => void = () => undefined;
    let loads = 0;
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => {
        loads += 1;
        return loads === 1 ? new Promise<number[]>((done) => (answerFirst = done)) : Promise.resolve([7]);
      },
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(loads).toBe(1));

    frameHandler(client, new Map(), quiet)({ t: 'conversation', conversationId: 7 });
    answerFirst([]);

    await vi.waitFor(() => expect(client.getQueryData(key)).toEqual([7]));
    expect(loads).toBe(2);
    stop();
    client.clear();
  });

  it('loads the list again when the socket is ready again (what changed while it was down came in no frame)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = keys.supportInbox('en', 'mine');
    let loads = 0;
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => {
        loads += 1;
        return Promise.resolve(loads === 1 ? [] : [8]);
      },
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(client.getQueryData(key)).toEqual([]));

    frameHandler(client, new Map(), quiet)({ t: 'ready', as: 'agent', agentsOnline: true });

    await vi.waitFor(() => expect(client.getQueryData(key)).toEqual([8]));
    stop();
    client.clear();
  });
});
