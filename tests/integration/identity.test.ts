import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';

const C = '/swx/customer';
const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('identity and money over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  beforeAll(async () => {
    inbox = await startInbox();
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${inbox.port}` });
  });
  afterAll(async () => {
    await server.stop();
    await inbox.close();
  });

  async function register(userName: string, email?: string): Promise<string> {
    const target = email ?? userName;
    const sent = await api(
      server.baseUrl,
      `${C}/login/sendCode`,
      json({ email: target, purpose: 'register' }),
    );
    expect(sent.body.code).toBe(200);
    const code = await inbox.codeFor(target);
    const r = await api(
      server.baseUrl,
      `${C}/login/register`,
      json({
        userName,
        ...(email ? { email } : {}),
        password: 'long enough pw',
        password2: 'long enough pw',
        code,
      }),
    );
    expect(r.body.code).toBe(200);
    return (r.body.data as { token: string }).token;
  }

  it('registers with a mailed code, opens a funded demo book and an empty live book', async () => {
    const before = (await api(server.baseUrl, `${C}/index/getPlatformStats`)).body.data as {
      registeredUsers: number;
      listedCrypto: number;
    };
    const token = await register('mira@example.com');
    const after = (await api(server.baseUrl, `${C}/index/getPlatformStats`)).body.data as {
      registeredUsers: number;
      listedCrypto: number;
    };
    // The home page's figures are counted, not typed in: one more user is one more.
    expect(after.registeredUsers).toBe(before.registeredUsers + 1);
    expect(after.listedCrypto).toBeGreaterThanOrEqual(350);
    const demo = await api(server.baseUrl, `${C}/user/getBalances`, {
      headers: { authorization: token, virtually: 'NO' },
    });
    expect(demo.body.data).toMatchObject({ book: 'demo' });
    expect((demo.body.data as { balances: { asset: string; available: string }[] }).balances[0]).toEqual(
      expect.objectContaining({ asset: 'USDT', available: '100000.000000' }),
    );
    const live = await api(server.baseUrl, `${C}/user/getBalances`, {
      headers: { authorization: token, virtually: 'YES' },
    });
    expect(
      (live.body.data as { balances: { available: string }[] }).balances.every(
        (b) => Number(b.available) === 0,
      ),
    ).toBe(true);
    const record = await api(server.baseUrl, `${C}/user/listTransactions`, {
      headers: { authorization: token },
    });
    expect((record.body.data as { items: { kind: string }[] }).items).toEqual([
      expect.objectContaining({
        kind: 'demo_funding',
        changes: [{ asset: 'USDT', amount: '100000.000000' }],
        orderNo: null,
        postings: [
          expect.objectContaining({ account: 'demo_issuance', own: false, amount: '-100000.000000' }),
          expect.objectContaining({ account: 'wallet', own: true, amount: '100000.000000' }),
        ],
      }),
    ]);
    const csv = await fetch(`${server.baseUrl}${C}/user/exportTransactions`, {
      headers: { authorization: token },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toMatch(/"demo_funding","USDT","100000.000000","posted"/);
  });

  it('registers a username with a separate email, and refuses taken names with 10006 and 10007', async () => {
    await register('trader_joe', 'joe@example.com');
    const again = await api(server.baseUrl, `${C}/login/checkUserNameOrPhone?userName=Trader_Joe`);
    expect(again.body.data).toEqual({ available: false });
    expect(
      (await api(server.baseUrl, `${C}/login/checkUserNameOrPhone?userName=someone_else`)).body.data,
    ).toEqual({ available: true });
    const dupEmail = await api(
      server.baseUrl,
      `${C}/login/register`,
      json({
        userName: 'another_name',
        email: 'Joe@Example.com',
        password: 'long enough pw',
        password2: 'long enough pw',
        code: '123456',
      }),
    );
    expect(dupEmail.body.code).toBe(10007);
    const dupName = await api(
      server.baseUrl,
      `${C}/login/register`,
      json({
        userName: 'TRADER_JOE',
        email: 'other@example.com',
        password: 'long enough pw',
        password2: 'long enough pw',
        code: '123456',
      }),
    );
    expect(dupName.body.code).toBe(10006);
  });

  it('refuses a wrong code, and after five wrong tries refuses even the right one', async () => {
    await api(
      server.baseUrl,
      `${C}/login/sendCode`,
      json({ email: 'guess@example.com', purpose: 'register' }),
    );
    const code = await inbox.codeFor('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await api(
        server.baseUrl,
        `${C}/login/register`,
        json({
          userName: 'guess@example.com',
          password: 'long enough pw',
          password2: 'long enough pw',
          code: wrong,
        }),
      );
      expect(r.body.code).toBe(10091);
    }
    const right = await api(
      server.baseUrl,
      `${C}/login/register`,
      json({ userName: 'guess@example.com', password: 'long enough pw', password2: 'long enough pw', code }),
    );
    expect(right.body.code).toBe(10091);
  });

  it('limits code sends per address: a second send within a minute is refused, localized', async () => {
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/sendCode`,
          json({ email: 'twice@example.com', purpose: 'register' }),
        )
      ).body.code,
    ).toBe(200);
    const second = await api(
      server.baseUrl,
      `${C}/login/sendCode`,
      json({ email: 'twice@example.com', purpose: 'register' }, { 'accept-language': 'it' }),
    );
    expect(second.body.code).toBe(10027);
    expect(second.body.msg).toMatch(/tentativ/i);
  });

  it('logs in with the right password only, and limits brute force per account', async () => {
    await register('brute@example.com');
    const ok = await api(
      server.baseUrl,
      `${C}/login/login`,
      json({ userName: 'BRUTE@example.com', password: 'long enough pw' }),
    );
    expect(ok.body.code).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push(
        (
          await api(
            server.baseUrl,
            `${C}/login/login`,
            json({ userName: 'brute@example.com', password: `guess ${i}` }),
          )
        ).body.code,
      );
    expect(codes.slice(0, 9).every((c) => c === 10004)).toBe(true);
    expect(codes.at(-1)).toBe(10027);
    // Even the right password is refused while the account is rate limited.
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/login`,
          json({ userName: 'brute@example.com', password: 'long enough pw' }),
        )
      ).body.code,
    ).toBe(10027);
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/login`,
          json({ userName: 'nobody@example.com', password: 'whatever' }),
        )
      ).body.code,
    ).toBe(10009);
  });

  it('ends the session on logout: the token stops working at once', async () => {
    const token = await register('leaver@example.com');
    expect(
      (
        await api(server.baseUrl, `${C}/user/getUserInfo`, {
          method: 'POST',
          headers: { authorization: token },
        })
      ).body.data,
    ).toMatchObject({ userName: 'leaver@example.com' });
    expect(
      (await api(server.baseUrl, `${C}/user/logout`, { method: 'POST', headers: { authorization: token } }))
        .body.code,
    ).toBe(200);
    const after = await api(server.baseUrl, `${C}/user/getUserInfo`, {
      method: 'POST',
      headers: { authorization: token },
    });
    expect(after.status).toBe(401);
  });

  it('writes a welcome notice in the user’s language; only its owner can list or read it', async () => {
    const sent = await api(
      server.baseUrl,
      `${C}/login/sendCode`,
      json({ email: 'noticed@example.com', purpose: 'register' }, { 'accept-language': 'de' }),
    );
    expect(sent.body.code).toBe(200);
    const code = await inbox.codeFor('noticed@example.com');
    const r = await api(
      server.baseUrl,
      `${C}/login/register`,
      json(
        { userName: 'noticed@example.com', password: 'long enough pw', password2: 'long enough pw', code },
        { 'accept-language': 'de' },
      ),
    );
    const token = (r.body.data as { token: string }).token;
    const other = await register('nosy@example.com');
    const unread = (
      await api(server.baseUrl, `${C}/user/getNoticeList?readState=0`, {
        headers: { authorization: token, 'accept-language': 'de' },
      })
    ).body.data as { id: number; noticeContent: string; readState: number }[];
    expect(unread).toHaveLength(1);
    expect(unread[0]?.noticeContent).toMatch(/^Willkommen bei SWX/);
    // Notices are written in the language of the reader, not of the moment they were made.
    const inEnglish = (
      await api(server.baseUrl, `${C}/user/getNoticeList?readState=0`, {
        headers: { authorization: token, 'accept-language': 'en' },
      })
    ).body.data as { noticeContent: string }[];
    expect(inEnglish[0]?.noticeContent).toMatch(/^Welcome to SWX/);
    // Another user reading it: nothing found, and it stays unread.
    expect(
      (
        await api(server.baseUrl, `${C}/user/readNotice?noticeId=${unread[0]?.id}`, {
          headers: { authorization: other },
        })
      ).body.code,
    ).toBe(10028);
    expect(
      (
        (
          await api(server.baseUrl, `${C}/user/getNoticeList?readState=0`, {
            headers: { authorization: token },
          })
        ).body.data as unknown[]
      ).length,
    ).toBe(1);
    expect(
      (
        (await api(server.baseUrl, `${C}/user/getNoticeList`, { headers: { authorization: other } })).body
          .data as { id: number }[]
      ).some((n) => n.id === unread[0]?.id),
    ).toBe(false);
    expect(
      (
        await api(server.baseUrl, `${C}/user/readNotice?noticeId=${unread[0]?.id}`, {
          headers: { authorization: token },
        })
      ).body.code,
    ).toBe(200);
    expect(
      (
        await api(server.baseUrl, `${C}/user/getNoticeList?readState=0`, {
          headers: { authorization: token },
        })
      ).body.data,
    ).toEqual([]);
  });

  it('recovers a password with a mailed code: old sessions and the old password stop working', async () => {
    const token = await register('forgetful@example.com');
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/sendCode`,
          json({ email: 'forgetful@example.com', purpose: 'reset' }),
        )
      ).body.code,
    ).toBe(200);
    const code = await inbox.codeFor('forgetful@example.com');
    const mismatch = await api(
      server.baseUrl,
      `${C}/login/resetPassword`,
      json({ email: 'forgetful@example.com', code, password: 'brand new pass', password2: 'other pass!!' }),
    );
    expect(mismatch.body.code).toBe(10026);
    const ok = await api(
      server.baseUrl,
      `${C}/login/resetPassword`,
      json({ email: 'Forgetful@example.com', code, password: 'brand new pass', password2: 'brand new pass' }),
    );
    expect(ok.body.code).toBe(200);
    expect(
      (
        await api(server.baseUrl, `${C}/user/getUserInfo`, {
          method: 'POST',
          headers: { authorization: token },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/login`,
          json({ userName: 'forgetful@example.com', password: 'long enough pw' }),
        )
      ).body.code,
    ).toBe(10004);
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/login`,
          json({ userName: 'forgetful@example.com', password: 'brand new pass' }),
        )
      ).body.code,
    ).toBe(200);
    // The code was used; and an address with no account gets the same refusal as a wrong code.
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/resetPassword`,
          json({ email: 'forgetful@example.com', code, password: 'third pass!!', password2: 'third pass!!' }),
        )
      ).body.code,
    ).toBe(10091);
    await api(server.baseUrl, `${C}/login/sendCode`, json({ email: 'ghost@example.com', purpose: 'reset' }));
    const ghostCode = await inbox.codeFor('ghost@example.com');
    expect(
      (
        await api(
          server.baseUrl,
          `${C}/login/resetPassword`,
          json({
            email: 'ghost@example.com',
            code: ghostCode,
            password: 'whatever pw',
            password2: 'whatever pw',
          }),
        )
      ).body.code,
    ).toBe(10091);
  });

  it('resets the demo book but never the live one', async () => {
    const token = await register('resetter@example.com');
    const live = await api(server.baseUrl, `${C}/user/resetDemo`, {
      method: 'POST',
      headers: { authorization: token, virtually: 'YES' },
    });
    expect(live.body.code).toBe(10029);
    const demo = await api(server.baseUrl, `${C}/user/resetDemo`, {
      method: 'POST',
      headers: { authorization: token, virtually: 'NO' },
    });
    expect(demo.body.code).toBe(200);
  });
});
