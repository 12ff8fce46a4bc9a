import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallLong } from '../support/orders.ts';
import { listedCryptoId, type RunningServer, startServer } from '../support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/** Whether a new connection to the port is refused (the listener is closed). */
const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const r = http.get({ host: '127.0.0.1', port, path: '/healthz' }, (response) => {
      response.resume();
      done(false);
    });
    r.on('error', () => done(true));
  });

describe('a node stopped with SIGTERM', () => {
  it('refuses new connections at once, and answers the request in flight in full', async () => {
    const marketId = await listedCryptoId(server.baseUrl, 'DOGEUSDT');
    const body = JSON.stringify(smallLong(marketId));
    // The request's head is in; its body is still on its way when the signal comes.
    const answer = new Promise<{ status: number; code: number }>((done, fail) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/swx/customer/order/previewOptions',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          response.on('end', () => done({ status: response.statusCode ?? 0, code: JSON.parse(text).code }));
        },
      );
      request.on('error', fail);
      request.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill('SIGTERM');
        setTimeout(async () => {
          expect(await refused(server.port)).toBe(true);
          request.end(body.slice(10));
        }, 700);
      }, 300);
    });
    expect(await answer).toEqual({ status: 200, code: 200 });
    expect(await server.stop()).toBe(0);
  });
});
