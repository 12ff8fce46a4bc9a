import { createHash, createHmac } from 'node:crypto';
import type { SwapQuoteBody } from '@swx/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

const usdtToBtc = (amount: string): SwapQuoteBody => ({ from: 'USDT', to: 'BTC', amount });
const units = (decimal: string) => BigInt(decimal.replace('.', ''));

describe('swap over HTTP, priced by the live feed', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let anonymous: CustomerApi;
  let alice: CustomerApi;
  let aliceLive: CustomerApi;
  let bob: CustomerApi;
  let admin: StaffApi;
  let support: StaffApi;

  useServer(
    {
      staff: [
        { email: 'admin@swx.test', role: 'admin' },
        { email: 'support@swx.test', role: 'support' },
      ],
    },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    anonymous = customerApi(server, null, { language: 'en' });
    const aliceSession = await registerByApi(server, inbox, 'alice.swap@example.com');
    alice = customerApi(server, aliceSession, { language: 'en' });
    aliceLive = customerApi(server, aliceSession, { language: 'en', book: 'live' });
    bob = customerApi(server, await registerByApi(server, inbox, 'bob.swap@example.com'), { language: 'en' });
    const enrol = async (email: string) =>
      enrolStaffByApi(server.baseUrl, email, oneTimePasswords[email] ?? '');
    admin = staffApi(server, await enrol('admin@swx.test'));
    support = staffApi(server, await enrol('support@swx.test'));
  });
  afterEach(() => expectLedgerSound(server), 60_000);

  it('lists the 12 pairs to anyone, with limits, fee rate and the mid-market rate now', async () => {
    const pairs = await anonymous.call('instantExchangeItem');
    expect(pairs.code).toBe(200);
    expect(pairs.data).toHaveLength(12);
    expect(pairs.data.find((p) => p.from === 'BTC' && p.to === 'USDT')).toMatchObject({
      min: '0.00010000',
      max: '2.00000000',
      feeRate: '0.001',
      available: true,
    });
    expect(pairs.data.find((p) => p.from === 'ETH' && p.to === 'USDC')).toMatchObject({
      min: '0.003000000000000000',
      max: '50.000000000000000000',
    });
    for (const p of pairs.data) expect(Number(p.rate)).toBeGreaterThan(0);
  });

  it('quotes and swaps with the spec codes: 401, 10038, 10039, 20005, the same request once, 10028 for another’s quote or book', async () => {
    expect((await anonymous.call('swapQuote', usdtToBtc('100'))).status).toBe(401);
    expect((await anonymous.call('swapHistory', {})).code).toBe(401);
    const low = await alice.call('swapQuote', usdtToBtc('9.99'));
    expect(low).toMatchObject({ code: 10038, data: { asset: 'USDT', minimum: '10.000000' } });
    expect((await alice.call('swapQuote', usdtToBtc('100000.01'))).code).toBe(10039);

    const quote = await alice.ok('swapQuote', usdtToBtc('1000'));
    expect(quote).toMatchObject({ from: 'USDT', to: 'BTC', amount: '1000.000000', feeRate: '0.001' });
    // Every figure is stated and adds up: receive = gross − fee, fee = ceil(gross × 0.001).
    expect(units(quote.receive)).toBe(units(quote.gross) - units(quote.fee));
    expect(units(quote.fee)).toBe((units(quote.gross) + 999n) / 1000n);
    expect(quote.expiresAt - quote.quoteTime).toBe(10);

    // Another customer's quote, or the same quote in the other book, is as if it did not exist.
    expect(
      (await bob.call('instantExchange', { quoteId: quote.quoteId, requestId: 'swap-alice-1' })).code,
    ).toBe(10028);
    expect(
      (await aliceLive.call('instantExchange', { quoteId: quote.quoteId, requestId: 'swap-alice-1' })).code,
    ).toBe(10028);
    // The live book has no money yet: 10011 at the quote.
    expect((await aliceLive.call('swapQuote', usdtToBtc('100'))).code).toBe(10011);

    const done = await alice.call('instantExchange', { quoteId: quote.quoteId, requestId: 'swap-alice-1' });
    expect(done.code).toBe(20005);
    expect(done.data).toMatchObject({
      amount: quote.amount,
      receive: quote.receive,
      fee: quote.fee,
      gross: quote.gross,
    });
    const again = await alice.call('instantExchange', { quoteId: quote.quoteId, requestId: 'swap-alice-1' });
    expect(again.data.id).toBe(done.data.id);

    const balances = await alice.ok('getBalances');
    expect(balances.balances.find((b) => b.asset === 'BTC')?.balance).toBe(quote.receive);
    expect(balances.balances.find((b) => b.asset === 'USDT')?.balance).toBe('99000.000000');
    expect((await alice.ok('swapHistory', {})).map((s) => s.id)).toEqual([done.data.id]);
    expect(await bob.ok('swapHistory', {})).toEqual([]);
    expect(await aliceLive.ok('swapHistory', {})).toEqual([]);

    // The transaction record names the swap with its figures.
    const record = await alice.ok('listTransactions', { kind: 'swap' });
    expect(record.items).toHaveLength(1);
    expect(record.items[0]).toMatchObject({
      kind: 'swap',
      entryId: done.data.entryId,
      swap: {
        id: done.data.id,
        from: 'USDT',
        to: 'BTC',
        amount: '1000.000000',
        receive: quote.receive,
        fee: quote.fee,
      },
    });
  });

  it('a quote is an offer accepted once, signed by no key anyone can read', async () => {
    const carol = customerApi(server, await registerByApi(server, inbox, 'carol.swap@example.com'), {
      language: 'en',
    });
    const balance = async (asset: string) =>
      (await carol.ok('getBalances')).balances.find((b) => b.asset === asset)?.balance;
    const quote = await carol.ok('swapQuote', { from: 'USDT', to: 'USDC', amount: '20' });
    const usdt = await balance('USDT');

    // Re-signed with a bigger gross under the key every server used when TOTP_KEY was unset (derived
    // from a text published in config.ts), in the old id format and in the new one: both refused.
    const publicKey = createHmac(
      'sha256',
      createHash('sha256').update('swx development TOTP key: set TOTP_KEY in production').digest(),
    )
      .update('swx quote key v1')
      .digest();
    const [keyId, payload] = quote.quoteId.split('.') as [string, string];
    const signed = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      f: { gross: string; receive: string };
    };
    signed.f.gross = (BigInt(signed.f.gross) * 1000n).toString();
    signed.f.receive = (BigInt(signed.f.receive) * 1000n).toString();
    const raised = Buffer.from(JSON.stringify(signed)).toString('base64url');
    const mac = (text: string) => createHmac('sha256', publicKey).update(text).digest('base64url');
    for (const forged of [`${raised}.${mac(raised)}`, `${keyId}.${raised}.${mac(`${keyId}.${raised}`)}`])
      expect((await carol.call('instantExchange', { quoteId: forged, requestId: 'forged-1' })).code).toBe(
        10026,
      );
    expect(await balance('USDT')).toBe(usdt);

    // The genuine quote sent 20 times at once under 20 request ids: one swap, 19 clear refusals.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        carol.call('instantExchange', { quoteId: quote.quoteId, requestId: `once-quote-${i}` }),
      ),
    );
    const done = answers.filter((a) => a.code === 20005);
    expect(done).toHaveLength(1);
    for (const refused of answers.filter((a) => a.code !== 20005))
      expect(refused).toMatchObject({ code: 10032, data: { reason: 'used' } });
    expect(units((await balance('USDT')) ?? '')).toBe(units(usdt ?? '') - units('20.000000'));
    expect(await balance('USDC')).toBe(quote.receive);
    expect(await carol.ok('swapHistory', {})).toHaveLength(1);
    // The winner's own request again answers its swap.
    const winner = done[0]?.data as { id: number; requestId?: string };
    const index = answers.findIndex((a) => a.code === 20005);
    const again = await carol.call('instantExchange', {
      quoteId: quote.quoteId,
      requestId: `once-quote-${index}`,
    });
    expect(again).toMatchObject({ code: 20005, data: { id: winner.id } });
  });

  it('staff: an admin’s change of a pair is audited and applies to the next quote; support is refused with 10029', async () => {
    const changed = {
      from: 'USDT',
      to: 'ETH',
      min: '20',
      max: '50000',
      feeRate: '0.002',
      enabled: true,
    } as const;
    expect((await support.call('updateSwapPair', changed)).code).toBe(10029);
    expect((await support.call('listSwapPairs')).code).toBe(10029);

    const updated = await admin.ok('updateSwapPair', changed);
    expect(updated).toMatchObject({
      min: '20.000000',
      max: '50000.000000',
      feeRate: '0.002',
      updatedBy: 'admin@swx.test',
    });
    expect((await admin.ok('listSwapPairs')).find((p) => p.from === 'USDT' && p.to === 'ETH')).toEqual(
      updated,
    );

    expect((await alice.call('swapQuote', { from: 'USDT', to: 'ETH', amount: '15' })).code).toBe(10038);
    const quote = await alice.ok('swapQuote', { from: 'USDT', to: 'ETH', amount: '100' });
    expect(quote.feeRate).toBe('0.002');
    expect(units(quote.fee)).toBe((units(quote.gross) * 2n + 999n) / 1000n);

    const audit = await admin.ok('auditLog', { action: 'swap.pair.updated' });
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({
      action: 'swap.pair.updated',
      subject: 'swap:USDT-ETH',
      actorStaff: { email: 'admin@swx.test' },
    });
    expect(JSON.parse(audit.rows[0]?.data ?? '{}')).toMatchObject({
      before: { min: '10.000000', feeRate: '0.001' },
      after: { min: '20', feeRate: '0.002' },
    });

    // Switched off: the pair is listed unavailable and quotes are 10015.
    await admin.ok('updateSwapPair', { ...changed, enabled: false });
    expect(
      (await anonymous.ok('instantExchangeItem')).find((p) => p.from === 'USDT' && p.to === 'ETH'),
    ).toMatchObject({ available: false });
    expect((await alice.call('swapQuote', { from: 'USDT', to: 'ETH', amount: '100' })).code).toBe(10015);
  });
});
