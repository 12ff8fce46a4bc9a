import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { readSubscription, textFrame } from './quote-hub.ts';

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

describe('a /message subscription', () => {
  it('reads codes and market types; {} is the whole list; anything else is not a subscription', () => {
    const one = readSubscription('{"codes":["BTCUSDT"]}');
    expect(one && [...one.codes]).toEqual(['BTCUSDT']);
    expect(one?.types.size).toBe(0);
    const both = readSubscription('{"types":[1,2],"codes":["EURUSD"]}');
    expect(both && [...both.types]).toEqual([1, 2]);
    // The same selection in another order shares its serialized answer.
    expect(readSubscription('{"codes":["B1","A1"]}')?.key).toBe(
      readSubscription('{"codes":["A1","B1"]}')?.key,
    );
    expect(readSubscription('{}')).toBeNull();
    for (const other of ['hello', '[]', '{"codes":["not a code"]}', '{"types":[4]}', '{"codes":"BTCUSDT"}'])
      expect(readSubscription(other), other).toBeUndefined();
    const tooMany = JSON.stringify({ codes: Array.from({ length: 201 }, (_, i) => `C${i}`) });
    expect(readSubscription(tooMany)).toBeUndefined();
  });
});
