import type { SupportClientFrame, SupportServerFrame } from '@swx/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { storedSession } from '../api.ts';
import { keys } from '../query.ts';

/**
 * The inbox's websocket as an agent: while it is open the agent counts as online (the server
 * renews it on a timer) and conversations are assigned to them. Every message and change reloads
 * the inbox's queries; a customer typing is shown for a few seconds.
 */
export function useAgentSocket(): {
  connected: boolean;
  typing: ReadonlySet<number>;
  send: (frame: SupportClientFrame) => boolean;
  lastError: number | null;
} {
  const client = useQueryClient();
  const socket = useRef<WebSocket | null>(null);
  const [connected, setConnected] = useState(false);
  const [typing, setTyping] = useState<ReadonlySet<number>>(new Set());
  const [lastError, setLastError] = useState<number | null>(null);

  useEffect(() => {
    let closed = false;
    let retry = 500;
    const timers = new Map<number, number>();
    const onFrame = frameHandler(client, timers, { setConnected, setTyping, setLastError });
    const open = () => {
      const ws = new WebSocket(
        `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/support/ws`,
      );
      socket.current = ws;
      ws.addEventListener('open', () => {
        retry = 500;
        ws.send(JSON.stringify({ t: 'hello', as: 'agent', token: storedSession()?.token ?? '' }));
      });
      ws.addEventListener('message', (event) =>
        onFrame(JSON.parse(String(event.data)) as SupportServerFrame),
      );
      ws.addEventListener('close', () => {
        setConnected(false);
        if (closed) return;
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 15_000);
      });
    };
    open();
    return () => {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      socket.current?.close();
    };
  }, [client]);

  const send = useCallback((frame: SupportClientFrame) => {
    const ws = socket.current;
    if (ws?.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(frame));
    return true;
  }, []);
  return { connected, typing, send, lastError };
}

type Setters = {
  setConnected: (value: boolean) => void;
  setTyping: (update: (now: ReadonlySet<number>) => ReadonlySet<number>) => void;
  setLastError: (code: number | null) => void;
};

/** What the inbox does with each frame: typing shown for 4 seconds, everything else reloads the inbox. */
export function frameHandler(client: QueryClient, timers: Map<number, number>, set: Setters) {
  const { setConnected, setTyping, setLastError } = set;
  return (frame: SupportServerFrame) => {
    if (frame.t === 'ready') setConnected(true);
    if (frame.t === 'error') setLastError(frame.code);
    if (frame.t === 'typing') {
      setTyping((now) => new Set(now).add(frame.conversationId));
      clearTimeout(timers.get(frame.conversationId));
      timers.set(
        frame.conversationId,
        window.setTimeout(() => {
          setTyping((now) => {
            const next = new Set(now);
            next.delete(frame.conversationId);
            return next;
          });
        }, 4000),
      );
    }
    // A (re)connection reloads too: what changed while the socket was down came in no frame.
    if (
      frame.t === 'ready' ||
      frame.t === 'message' ||
      frame.t === 'conversation' ||
      frame.t === 'receipts'
    ) {
      if (frame.t === 'message') setLastError(null);
      void reload(client);
    }
  };
}

/**
 * Reloads the inbox's queries after a change. An invalidation restarts the load of a query that
 * has data, but one still on its first load only joins it, and that load may have read the inbox
 * before the change: as the inbox opens, its list is loading while the socket's hello assigns the
 * waiting conversations to this agent, and an empty list would stand until the next change. So a
 * first load under way is cancelled (back to pending) and loaded again, after the change.
 */
async function reload(client: QueryClient): Promise<void> {
  await client.cancelQueries({
    queryKey: keys.support,
    fetchStatus: 'fetching',
    predicate: (query) => query.state.data === undefined,
  });
  await client.invalidateQueries({ queryKey: keys.support });
}
