import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import type { CustomerApi } from '../support/api.ts';
import { customerApi } from '../support/api.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { until } from '../support/until.ts';

/**
 * Issue 41: the record states the fee of every swap (in the asset it was paid in), notices say
 * amounts as the screens do ("150.50 USDT", never "150.500000 USDT"), and EVM addresses reach the
 * customer in their EIP-55 checksummed form: deposit address, deposits, address book, notices.
 */

/** A swap at a fresh quote, committed at once. */
async function swap(api: CustomerApi, from: 'USDT' | 'BTC', to: 'USDT' | 'BTC', amount: string) {
  const quote = await api.ok('swapQuote', { from, to, amount });
  return api.ok('instantExchange', { quoteId: quote.quoteId, requestId: crypto.randomUUID() });
}

describe('amounts and addresses as the customer reads them', () => {
  let chain: TestChain;
  let server: RunningServer;
  let inbox: Inbox;
  let alice: Session;

  useServer(
    {
      env: async () => {
        chain = await startTestChain();
        return { ...chain.env, WALLET_POLL_MS: '100' };
      },
      after: async () => chain?.close(),
    },
    (s) => ({ server, inbox } = s),
  );
  beforeAll(async () => {
    alice = await registerByApi(server, inbox, 'alice.precision@example.com');
  });

  it('states the fee of each of two swaps in the record, in the asset it was paid in', async () => {
    const demo = customerApi(server, alice, { language: 'en' });
    const there = await swap(demo, 'USDT', 'BTC', '1000');
    const back = await swap(demo, 'BTC', 'USDT', there.receive);
    const { items } = await demo.ok('listTransactions', { kind: 'swap' });
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({ asset: 'BTC', fee: there.fee, swap: { id: there.id, fee: there.fee } });
    expect(items[0]).toMatchObject({ asset: 'USDT', fee: back.fee, swap: { id: back.id, fee: back.fee } });
    await expectLedgerSound(server);
  });

  it('says amounts in notices as every screen does, and shows EVM addresses checksummed', async () => {
    const live = customerApi(server, alice, { book: 'live', language: 'en' });
    const { address } = await live.ok('getDepositAddress', { network: 'USDT-EVM' });
    expect(address).toBe(getAddress(address));
    expect(address).not.toBe(address.toLowerCase());
    await chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: 150_500_000n });
    await until(
      () => live.ok('listRecharge'),
      (d) => d.length === 1,
      'the deposit',
    );
    await chain.dev.mine(11);
    const [credited] = await until(
      () => live.ok('listRecharge'),
      (d) => d[0]?.state === 'credited',
      'the credit',
    );
    expect(credited).toMatchObject({ amount: '150.500000', address });

    const notices = async (language: 'en' | 'de') =>
      (await customerApi(server, alice, { language }).ok('getNoticeList')).map((n) => n.noticeContent);
    const english = await until(
      () => notices('en'),
      (n) => n.some((text) => text.startsWith('Your deposit of')),
      'the notice',
    );
    expect(english).toContain(
      'Your deposit of 150.50 USDT is credited to your live account. It becomes withdrawable once the network has confirmed it deeply enough; until then it is held.',
    );
    expect(english.join('\n')).not.toMatch(/\d\.\d{3,}0 USDT/);
    expect((await notices('de')).join('\n')).toContain('150,50 USDT');

    // An address typed in lowercase: the book and the notice show its checksummed form.
    const checksummed = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    const added = await live.ok('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address: checksummed.toLowerCase(),
      label: 'Cold storage',
    });
    expect(added.address).toBe(checksummed);
    expect((await live.ok('listWithdrawalAddresses')).map((a) => a.address)).toEqual([checksummed]);
    const told = await until(
      () => notices('en'),
      (n) => n.some((text) => text.startsWith('The withdrawal address')),
      'the address notice',
    );
    expect(told.find((text) => text.startsWith('The withdrawal address'))).toContain(
      `The withdrawal address ${checksummed} on`,
    );
  });
});
