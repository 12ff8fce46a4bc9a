import { afterEach, describe, expect, it } from 'vitest';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

describe('identity and money over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let anonymous: CustomerApi;
  useServer({}, (s) => ({ server, inbox, anonymous } = s));
  // Registrations fund demo books and one test resets one: the ledger stays sound after each.
  afterEach(() => expectLedgerSound(server), 60_000);

  /** Registers through the API; answers the customer's client. */
  async function register(userName: string, email?: string): Promise<CustomerApi> {
    const target = email ?? userName;
    const sent = await anonymous.call('sendCode', { email: target, purpose: 'register' });
    expect(sent.code).toBe(200);
    const code = await inbox.codeFor(target);
    const r = await anonymous.call('register', {
      userName,
      ...(email ? { email } : {}),
      password: 'long enough pw',
      password2: 'long enough pw',
      code,
    });
    expect(r.code).toBe(200);
    return customerApi(server, r.data.token);
  }

  it('registers with a mailed code, opens a funded demo book and an empty live book', async () => {
    const before = await anonymous.ok('getPlatformStats');
    const customer = await register('mira@example.com');
    const after = await anonymous.ok('getPlatformStats');
    // The home page's figures are counted, not typed in: one more user is one more.
    expect(after.registeredUsers).toBe(before.registeredUsers + 1);
    expect(after.listedCrypto).toBeGreaterThanOrEqual(350);
    const demo = await customer.call('getBalances', {}, { book: 'demo' });
    expect(demo.data).toMatchObject({ book: 'demo' });
    expect(demo.data.balances[0]).toEqual(
      expect.objectContaining({ asset: 'USDT', available: '100000.000000' }),
    );
    const live = await customer.call('getBalances', {}, { book: 'live' });
    expect(live.data.balances.every((b) => Number(b.available) === 0)).toBe(true);
    const record = await customer.call('listTransactions');
    expect(record.data.items).toEqual([
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
    // The export is a file, not an envelope: plain HTTP.
    const csv = await fetch(`${server.baseUrl}/swx/customer/user/exportTransactions`, {
      headers: { authorization: customer.token },
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toMatch(/"demo_funding","USDT","100000.000000","posted"/);
  });

  it('registers a username with a separate email, and refuses taken names with 10006 and 10007', async () => {
    await register('trader_joe', 'joe@example.com');
    const again = await anonymous.call('checkUserNameOrPhone', { userName: 'Trader_Joe' });
    expect(again.data).toEqual({ available: false });
    expect((await anonymous.call('checkUserNameOrPhone', { userName: 'someone_else' })).data).toEqual({
      available: true,
    });
    const dupEmail = await anonymous.call('register', {
      userName: 'another_name',
      email: 'Joe@Example.com',
      password: 'long enough pw',
      password2: 'long enough pw',
      code: '123456',
    });
    expect(dupEmail.code).toBe(10007);
    const dupName = await anonymous.call('register', {
      userName: 'TRADER_JOE',
      email: 'other@example.com',
      password: 'long enough pw',
      password2: 'long enough pw',
      code: '123456',
    });
    expect(dupName.code).toBe(10006);
  });

  it('refuses a wrong code, and after five wrong tries refuses even the right one', async () => {
    await anonymous.call('sendCode', { email: 'guess@example.com', purpose: 'register' });
    const code = await inbox.codeFor('guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await anonymous.call('register', {
        userName: 'guess@example.com',
        password: 'long enough pw',
        password2: 'long enough pw',
        code: wrong,
      });
      expect(r.code).toBe(10091);
    }
    const right = await anonymous.call('register', {
      userName: 'guess@example.com',
      password: 'long enough pw',
      password2: 'long enough pw',
      code,
    });
    expect(right.code).toBe(10091);
  });

  it('limits code sends per address: a second send within a minute is refused, localized', async () => {
    expect((await anonymous.call('sendCode', { email: 'twice@example.com', purpose: 'register' })).code).toBe(
      200,
    );
    const second = await anonymous.call(
      'sendCode',
      { email: 'twice@example.com', purpose: 'register' },
      { language: 'it' },
    );
    expect(second.code).toBe(10027);
    expect(second.msg).toMatch(/tentativ/i);
  });

  it('logs in with the right password only, and limits brute force per account', async () => {
    await register('brute@example.com');
    const ok = await anonymous.call('login', { userName: 'BRUTE@example.com', password: 'long enough pw' });
    expect(ok.code).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++)
      codes.push(
        (await anonymous.call('login', { userName: 'brute@example.com', password: `guess ${i}` })).code,
      );
    expect(codes.slice(0, 9).every((c) => c === 10004)).toBe(true);
    expect(codes.at(-1)).toBe(10027);
    // Even the right password is refused while the account is rate limited.
    expect(
      (await anonymous.call('login', { userName: 'brute@example.com', password: 'long enough pw' })).code,
    ).toBe(10027);
    expect(
      (await anonymous.call('login', { userName: 'nobody@example.com', password: 'whatever' })).code,
    ).toBe(10009);
  });

  it('ends the session on logout: the token stops working at once', async () => {
    const customer = await register('leaver@example.com');
    expect((await customer.call('getUserInfo')).data).toMatchObject({ userName: 'leaver@example.com' });
    expect((await customer.call('logout')).code).toBe(200);
    const after = await customer.call('getUserInfo');
    expect(after.status).toBe(401);
  });

  it('writes a welcome notice in the user’s language; only its owner can list or read it', async () => {
    const german = customerApi(server, null, { language: 'de' });
    const sent = await german.call('sendCode', { email: 'noticed@example.com', purpose: 'register' });
    expect(sent.code).toBe(200);
    const code = await inbox.codeFor('noticed@example.com');
    const r = await german.call('register', {
      userName: 'noticed@example.com',
      password: 'long enough pw',
      password2: 'long enough pw',
      code,
    });
    const owner = customerApi(server, r.data.token);
    const other = await register('nosy@example.com');
    const unread = (await owner.call('getNoticeList', { readState: '0' }, { language: 'de' })).data;
    expect(unread).toHaveLength(1);
    expect(unread[0]?.noticeContent).toMatch(/^Willkommen bei SWX/);
    // Notices are written in the language of the reader, not of the moment they were made.
    const inEnglish = (await owner.call('getNoticeList', { readState: '0' }, { language: 'en' })).data;
    expect(inEnglish[0]?.noticeContent).toMatch(/^Welcome to SWX/);
    // Another user reading it: nothing found, and it stays unread.
    expect((await other.call('readNotice', { noticeId: unread[0]?.id ?? 0 })).code).toBe(10028);
    expect((await owner.call('getNoticeList', { readState: '0' })).data.length).toBe(1);
    expect((await other.call('getNoticeList')).data.some((n) => n.id === unread[0]?.id)).toBe(false);
    expect((await owner.call('readNotice', { noticeId: unread[0]?.id ?? 0 })).code).toBe(200);
    expect((await owner.call('getNoticeList', { readState: '0' })).data).toEqual([]);
  });

  it('recovers a password with a mailed code: old sessions and the old password stop working', async () => {
    const customer = await register('forgetful@example.com');
    expect(
      (await anonymous.call('sendCode', { email: 'forgetful@example.com', purpose: 'reset' })).code,
    ).toBe(200);
    const code = await inbox.codeFor('forgetful@example.com');
    const mismatch = await anonymous.call('resetPassword', {
      email: 'forgetful@example.com',
      code,
      password: 'brand new pass',
      password2: 'other pass!!',
    });
    expect(mismatch.code).toBe(10026);
    const ok = await anonymous.call('resetPassword', {
      email: 'Forgetful@example.com',
      code,
      password: 'brand new pass',
      password2: 'brand new pass',
    });
    expect(ok.code).toBe(200);
    expect((await customer.call('getUserInfo')).status).toBe(401);
    expect(
      (await anonymous.call('login', { userName: 'forgetful@example.com', password: 'long enough pw' })).code,
    ).toBe(10004);
    expect(
      (await anonymous.call('login', { userName: 'forgetful@example.com', password: 'brand new pass' })).code,
    ).toBe(200);
    // The code was used; and an address with no account gets the same refusal as a wrong code.
    expect(
      (
        await anonymous.call('resetPassword', {
          email: 'forgetful@example.com',
          code,
          password: 'third pass!!',
          password2: 'third pass!!',
        })
      ).code,
    ).toBe(10091);
    await anonymous.call('sendCode', { email: 'ghost@example.com', purpose: 'reset' });
    const ghostCode = await inbox.codeFor('ghost@example.com');
    expect(
      (
        await anonymous.call('resetPassword', {
          email: 'ghost@example.com',
          code: ghostCode,
          password: 'whatever pw',
          password2: 'whatever pw',
        })
      ).code,
    ).toBe(10091);
  });

  it('resets the demo book but never the live one', async () => {
    const customer = await register('resetter@example.com');
    const live = await customer.call('resetDemo', {}, { book: 'live' });
    expect(live.code).toBe(10029);
    const demo = await customer.call('resetDemo', {}, { book: 'demo' });
    expect(demo.code).toBe(200);
  });
});
