import { Code } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { advanceClock, type RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';

/**
 * Papers over HTTP (modules/papers): a statement is the session's own and nobody else's, whatever
 * the query says; bad periods are refused with 10026; the calendar feed answers only to a live
 * token (a rotated, revoked or made-up one gets a bare 404), without a session.
 */
const C = '/swx/customer';
const today = () => new Date().toISOString().slice(0, 10);

describe('papers over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let alice: Session;
  let bob: Session;
  let aliceApi: CustomerApi;
  let bobApi: CustomerApi;

  useServer({}, (s) => ({ server, inbox } = s));
  beforeAll(async () => {
    alice = await registerByApi(server, inbox, 'papers.alice@example.com');
    bob = await registerByApi(server, inbox, 'papers.bob@example.com');
    aliceApi = customerApi(server, alice.token, { language: 'en' });
    bobApi = customerApi(server, bob.token, { language: 'en' });
  });

  /** A statement file of the demo book, this month so far, as the app asks for it. */
  const statement = (token: string | null, query: Record<string, string> = {}) =>
    fetch(
      `${server.baseUrl}${C}/user/papers/statement?${new URLSearchParams({
        asset: 'USDT',
        from: `${today().slice(0, 7)}-01`,
        to: today(),
        format: 'csv',
        ...query,
      })}`,
      { headers: { virtually: 'NO', 'accept-language': 'en', ...(token ? { authorization: token } : {}) } },
    );
  const entriesOf = (csv: string) =>
    csv
      .trim()
      .split('\r\n')
      .slice(2, -1)
      .map((row) => row.split(',')[1]);

  it('a statement is the session’s own: each customer sees their own entries, never the other’s', async () => {
    const a = await statement(alice.token);
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(a.headers.get('cache-control')).toContain('no-store');
    const aliceCsv = await a.text();
    expect(aliceCsv).toContain('Demo money added');
    expect(aliceCsv).toMatch(/,100000\.000000\r\n$/);
    const bobCsv = await (await statement(bob.token)).text();
    const aliceEntries = entriesOf(aliceCsv);
    const bobEntries = entriesOf(bobCsv);
    expect(aliceEntries.length).toBe(1);
    expect(bobEntries.length).toBe(1);
    expect(bobEntries).not.toContain(aliceEntries[0]);
    // What was recorded is listed to its owner only.
    expect((await aliceApi.ok('getStatements')).statements.map((s) => s.asset)).toEqual(['USDT']);
    expect((await bobApi.ok('getStatements')).statements).toHaveLength(1);
    const pdf = await statement(alice.token, { format: 'pdf' });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('no session: 401 and no file; a bad period or asset: 10026', async () => {
    const none = await statement(null);
    expect(none.status).toBe(401);
    expect((await none.json()).code).toBe(Code.SESSION_EXPIRED);
    const bad: Record<string, string>[] = [
      { asset: 'DOGE' },
      { from: today(), to: '2020-01-01' },
      { from: '2020-01-01', to: today() },
    ];
    for (const query of bad)
      expect((await (await statement(alice.token, query)).json()).code).toBe(Code.INVALID_INPUT);
    const tax = await fetch(`${server.baseUrl}${C}/user/papers/tax.csv?year=2026`, {
      headers: { authorization: alice.token, virtually: 'NO' },
    });
    expect(tax.status).toBe(200);
    // (the UTF-8 byte-order mark is taken off by the decoder, as a spreadsheet does)
    expect((await tax.text()).split('\r\n')[0]).toMatch(
      /^# Method: UTC calendar year 2026; .*average cost per asset/,
    );
  });

  it('the calendar feed answers to a live token only: rotated, revoked or made-up ones get 404', async () => {
    const feed = (path: string) => fetch(`${server.baseUrl}${path}`);
    const first = await aliceApi.ok('rotateCalendarLink', {});
    const path = first.path ?? '';
    expect(path).toMatch(/^\/swx\/customer\/papers\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const answer = await feed(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await answer.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
    // The link's address is never shown again.
    expect(await aliceApi.ok('getCalendarLink')).toEqual({ active: true, createdAt: first.createdAt });
    const bobLink = (await bobApi.ok('rotateCalendarLink', {})).path ?? '';
    const second = (await aliceApi.ok('rotateCalendarLink', {})).path ?? '';
    expect((await feed(path)).status).toBe(404);
    expect((await feed(second)).status).toBe(200);
    await aliceApi.ok('revokeCalendarLink', {});
    expect((await feed(second)).status).toBe(404);
    expect((await feed(bobLink)).status).toBe(200);
    expect((await feed(`${C}/papers/calendar/${'A'.repeat(43)}.ics`)).status).toBe(404);
    expect((await feed(`${C}/papers/calendar/not-a-token.ics`)).status).toBe(404);
  });
});

describe('the monthly statements, on the server’s clock', () => {
  let server: RunningServer;
  let inbox: Inbox;
  useServer({ env: { SWX_CLOCK: 'movable' } }, (s) => ({ server, inbox } = s));

  it('on the 1st the job records the month before’s statement of each customer active in it', async () => {
    const carol = await registerByApi(server, inbox, 'papers.carol@example.com');
    const api = customerApi(server, carol.token, { language: 'en' });
    expect((await api.ok('getStatements')).statements).toEqual([]);
    // To the first day of the next month (UTC): the job's monthly run falls due and runs.
    const now = new Date();
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const days = Math.ceil((first - now.getTime()) / 86_400_000);
    const at = await advanceClock(server, `${days}d`);
    expect(new Date(at).getUTCDate()).toBe(1);
    const month = now.toISOString().slice(0, 7);
    const [made] = (await api.ok('getStatements')).statements;
    expect(made).toMatchObject({
      book: 'demo',
      asset: 'USDT',
      from: `${month}-01`,
      opening: '0.000000',
      closing: '100000.000000',
      credits: '100000.000000',
      events: 1,
    });
    expect(made?.to.slice(0, 7)).toBe(month);
  });
});
