import { createServer, type Server } from 'node:http';
import type { calls } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerApi, type InputOf } from '../support/api.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { smsCodeFor, smsOutbox } from '../support/sms.ts';

const C = '/swx/customer';
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const PASSWORD = 'long enough pw';
type Input<N extends keyof typeof calls> = InputOf<(typeof calls)[N]>;

describe('registration and login by phone, SMS codes from the outbox', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  const anonymous = () => customerApi(server);
  const sendSms = (body: Input<'sendSmsCode'>, language = 'en') =>
    anonymous().call('sendSmsCode', body, { language });
  const register = (body: Input<'register'>) => anonymous().call('register', body);
  const login = (body: Input<'login'>) => anonymous().call('login', body);
  const available = (query: Input<'checkUserNameOrPhone'>) => anonymous().call('checkUserNameOrPhone', query);

  it('registers by phone with the SMS code, then logs in by phone, and refuses the number again with 10007', async () => {
    expect(await available({ areaCode: '+44', phone: '7700900123' })).toMatchObject({
      code: 200,
      data: { available: true },
    });
    const sent = await sendSms({ areaCode: '+44', phone: '07700900123', purpose: 'register' }, 'fr');
    expect(sent).toMatchObject({ code: 200, data: { expiresInSeconds: 600, resendInSeconds: 60 } });
    const [sms] = (await smsOutbox(server.dataDir)).filter((m) => m.to === '+447700900123');
    // One file per message, in the request's language.
    expect(sms?.text).toMatch(/^SWX : votre code de vérification est \d{6}\./);
    const code = await smsCodeFor(server.dataDir, '+447700900123');

    const wrong = await register({
      areaCode: '+44',
      phone: '7700900123',
      password: PASSWORD,
      password2: PASSWORD,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.code).toBe(10091);

    const registered = await register({
      areaCode: '+44',
      phone: '7700900123',
      password: PASSWORD,
      password2: PASSWORD,
      code,
    });
    expect(registered.code).toBe(200);
    const session = registered.data;
    expect(session.userInfo.userName).toBe('+447700900123');
    const customer = customerApi(server, session);
    const me = await customer.call('getUserInfo');
    expect(me.data).toEqual({ id: session.userInfo.id, userName: '+447700900123' });
    // The demo book is opened as for any registration.
    const demo = await customer.call('getBalances', {}, { book: 'demo' });
    expect(JSON.stringify(demo.data)).toContain('100000.000000');

    expect(await available({ areaCode: '+44', phone: '07700900123' })).toMatchObject({
      data: { available: false },
    });
    expect(await available({ userName: '+447700900123' })).toMatchObject({ data: { available: false } });

    const logins: Input<'login'>[] = [
      { userName: '+447700900123', password: PASSWORD },
      { userName: '+44 7700 900123', password: PASSWORD },
      { areaCode: '+44', phone: '07700900123', password: PASSWORD },
    ];
    for (const body of logins) {
      const r = await login(body);
      expect(r.code, JSON.stringify(body)).toBe(200);
      expect('userInfo' in r.data && r.data.userInfo.id).toBe(session.userInfo.id);
    }
    expect((await login({ areaCode: '+44', phone: '7700900123', password: 'wrong password' })).code).toBe(
      10004,
    );
    expect((await login({ areaCode: '+44', phone: '7700900999', password: PASSWORD })).code).toBe(10009);

    const inUse = await register({
      areaCode: '+44',
      phone: '7700900123',
      password: PASSWORD,
      password2: PASSWORD,
      code,
    });
    expect(inUse.code).toBe(10007);
    const sendInUse = await sendSms({ areaCode: '+44', phone: '7700900123', purpose: 'register' });
    expect(sendInUse.code).toBe(10027); // the resend limit of the number still runs
  });

  it('resets the password of a phone account with an SMS code', async () => {
    const e164 = '+61412345678';
    await sendSms({ areaCode: '+61', phone: '0412345678', purpose: 'register' });
    const code = await smsCodeFor(server.dataDir, e164);
    expect(
      (await register({ areaCode: '+61', phone: '412345678', password: PASSWORD, password2: PASSWORD, code }))
        .code,
    ).toBe(200);
    expect((await sendSms({ areaCode: '+61', phone: '412345678', purpose: 'reset' })).code).toBe(200);
    const resetCode = await smsCodeFor(server.dataDir, e164);
    expect(resetCode).not.toBe('');
    const reset = await anonymous().call('resetPassword', {
      areaCode: '+61',
      phone: '412345678',
      code: resetCode,
      password: 'another pass',
      password2: 'another pass',
    });
    expect(reset.code).toBe(200);
    expect((await login({ userName: e164, password: PASSWORD })).code).toBe(10004);
    expect((await login({ userName: e164, password: 'another pass' })).code).toBe(200);
  });

  it('limits SMS sends per number (one a minute) and refuses bad numbers as bad input', async () => {
    expect((await sendSms({ areaCode: '+1', phone: '2025550143', purpose: 'register' })).code).toBe(200);
    const again = await sendSms({ areaCode: '+1', phone: '2025550143', purpose: 'register' });
    expect(again.status).toBe(429);
    expect(again.code).toBe(10027);
    expect((await smsOutbox(server.dataDir)).filter((m) => m.to === '+12025550143')).toHaveLength(1);

    for (const body of [
      { areaCode: '+999', phone: '2025550143', purpose: 'register' },
      { areaCode: '+852', phone: '12345678901234', purpose: 'register' },
      { areaCode: '+1', phone: '20255x0143', purpose: 'register' },
      { areaCode: '+1', phone: '2025550143', purpose: 'other' },
    ]) {
      // Bad input on the wire, beside the contract's types: a raw request.
      const r = await api(server.baseUrl, `${C}/login/sendSmsCode`, json(body, { 'accept-language': 'en' }));
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(10026);
    }
  });
});

describe('the HTTP SMS provider', () => {
  let gateway: Server;
  let server: RunningServer;
  let answer = 200;
  const received: { authorization: string | undefined; contentType: string | undefined; body: unknown }[] =
    [];
  beforeAll(async () => {
    gateway = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      request.on('end', () => {
        received.push({
          authorization: request.headers.authorization,
          contentType: request.headers['content-type'],
          body: JSON.parse(raw) as unknown,
        });
        response.writeHead(answer, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer === 200 ? { id: `msg-${received.length}` } : { error: 'down' }));
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const port = (gateway.address() as { port: number }).port;
    server = await startServer({ SMS_URL: `http://127.0.0.1:${port}/sms`, SMS_TOKEN: 'gateway-secret' });
  });
  afterAll(async () => {
    await server.stop();
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  });

  it('POSTs {to, text} as JSON with the bearer token; a refused message is kept in sms-outbox/failed', async () => {
    const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as { sms: string };
    expect(ready.sms).toBe('http');
    const anonymous = customerApi(server);
    const sent = await anonymous.call(
      'sendSmsCode',
      { areaCode: '+31', phone: '0612345678', purpose: 'register' },
      { language: 'ja' },
    );
    expect(sent.code).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      authorization: 'Bearer gateway-secret',
      contentType: 'application/json',
      body: { to: '+31612345678', text: expect.stringMatching(/^SWX：認証コードは \d{6} です。/) },
    });
    const first = received[0]?.body as { to: string; text: string };
    expect(Object.keys(first).sort()).toEqual(['text', 'to']);
    const code = /\b(\d{6})\b/.exec(first.text)?.[1] ?? '';
    const registered = await anonymous.call('register', {
      areaCode: '+31',
      phone: '612345678',
      password: PASSWORD,
      password2: PASSWORD,
      code,
    });
    expect(registered.code).toBe(200);
    // Nothing goes to the local outbox when the gateway takes the message.
    expect(await smsOutbox(server.dataDir)).toEqual([]);

    answer = 503;
    const refused = await anonymous.call('sendSmsCode', {
      areaCode: '+32',
      phone: '470123456',
      purpose: 'register',
    });
    expect(refused.status).toBe(500);
    expect(refused.code).toBe(10030);
    const failed = await smsOutbox(server.dataDir, true);
    expect(failed).toEqual([
      expect.objectContaining({
        to: '+32470123456',
        text: expect.stringMatching(/^SWX: your verification code is \d{6}\./),
        error: 'SMS gateway answered HTTP 503',
      }),
    ]);
  });
});
