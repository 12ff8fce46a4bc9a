import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type WebSocket, WebSocketServer } from 'ws';

export type BinanceFrame = { stream: string; data: Record<string, unknown> };

/** The recorded frames of Binance's combined stream (tests/fixtures/binance-combined.jsonl). */
export function recordedFrames(): BinanceFrame[] {
  return readFileSync(join(import.meta.dirname, '..', 'fixtures', 'binance-combined.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as BinanceFrame);
}

export type BinanceReplay = {
  port: number;
  url: string;
  /** The streams each connection asked for, in connection order. */
  connections: string[][];
  /** Sends a frame (or raw text) to every open connection that asked for its stream. */
  send(frame: BinanceFrame | string): void;
  /** Cuts every connection, as the exchange does at its 24-hour mark or on a network fault. */
  dropClients(): void;
  close(): Promise<void>;
};

/**
 * A local stand-in for Binance's combined-stream endpoint: it accepts `/stream?streams=a/b/c`,
 * replays the recorded frames of the streams asked for, in order, on each new connection, and
 * with `keepAliveMs` resends each symbol's last top of book at that interval (so prices stay fresh
 * while the test looks).
 */
export async function startBinanceReplay(
  frames: BinanceFrame[],
  options: { port?: number; keepAliveMs?: number } = {},
): Promise<BinanceReplay> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0 });
  await new Promise<void>((done) => server.once('listening', () => done()));
  const connections: string[][] = [];
  const clients = new Map<WebSocket, Set<string>>();
  server.on('connection', (socket, request) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/stream') {
      socket.close(1008, 'unknown path');
      return;
    }
    // Streams named in the URL, and any added by SUBSCRIBE messages, as the exchange takes both.
    const streams = (url.searchParams.get('streams') ?? '').split('/').filter(Boolean);
    connections.push(streams);
    const wanted = new Set(streams);
    clients.set(socket, wanted);
    const replay = (names: string[]) => {
      for (const frame of frames) if (names.includes(frame.stream)) socket.send(JSON.stringify(frame));
    };
    socket.on('close', () => clients.delete(socket));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { method?: string; params?: string[]; id?: number };
      if (message.method !== 'SUBSCRIBE' || !Array.isArray(message.params)) {
        socket.send(JSON.stringify({ error: { code: 2, msg: 'Invalid request' }, id: message.id ?? null }));
        return;
      }
      for (const name of message.params) {
        wanted.add(name);
        streams.push(name);
      }
      socket.send(JSON.stringify({ result: null, id: message.id }));
      replay(message.params);
    });
    replay(streams);
  });
  const lastBook = new Map<string, BinanceFrame>();
  for (const frame of frames) if (frame.stream.endsWith('@bookTicker')) lastBook.set(frame.stream, frame);
  const send = (frame: BinanceFrame | string) => {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    for (const [socket, wanted] of clients)
      if (typeof frame === 'string' || wanted.has(frame.stream)) socket.send(text);
  };
  const timer = options.keepAliveMs
    ? setInterval(() => {
        for (const frame of lastBook.values()) send(frame);
      }, options.keepAliveMs)
    : null;
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `ws://127.0.0.1:${port}/stream`,
    connections,
    send,
    dropClients() {
      for (const socket of clients.keys()) socket.terminate();
    },
    async close() {
      if (timer) clearInterval(timer);
      for (const socket of clients.keys()) socket.terminate();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
