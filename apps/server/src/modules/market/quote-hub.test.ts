import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { textFrame } from './quote-hub.ts';

/** The pre-built frame, written straight to the TCP socket, must reach a real ws client as the same text. */
let server: WebSocketServer;
let port = 0;
let next = '';

beforeAll(async () => {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  server.on('connection', (socket) => {
    (socket as unknown as { _socket: Socket })._socket.write(textFrame(Buffer.from(next)));
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function roundTrip(text: string): Promise<{ data: string; binary: boolean }> {
  next = text;
  return new Promise((resolve, reject) => {
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    client.on('message', (data: Buffer, binary: boolean) => {
      resolve({ data: data.toString(), binary });
      client.close();
    });
    client.on('error', reject);
  });
}

describe('the quote frame', () => {
  for (const length of [0, 125, 126, 65_535, 65_536, 300_000]) {
    it(`frames a ${length}-byte payload as one final text frame`, async () => {
      const text = 'q'.repeat(length);
      expect(textFrame(Buffer.from(text))[0]).toBe(0x81);
      expect(await roundTrip(text)).toEqual({ data: text, binary: false });
    });
  }
});
