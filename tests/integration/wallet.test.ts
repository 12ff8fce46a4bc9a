import { uploadFileUrl } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import { type RunningServer, startServer } from '../support/server.ts';
import { type Inbox, startInbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { until } from '../support/until.ts';
import { uploadedId } from '../support/uploads.ts';

const USDT = (n: number) => BigInt(n) * 1_000_000n;

describe('deposits and withdrawals over HTTP, on a development chain', () => {
  let chain: TestChain;
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let finance: StaffApi;
  let financeToken: string;
  let alice: Session;
  let bob: Session;
  const live = (session: Session) => customerApi(server, session, { book: 'live', language: 'en' });

  useServer(
    {
      env: async () => {
        chain = await startTestChain();
        return { ...chain.env, WALLET_POLL_MS: '100' };
      },
      staff: [{ email: 'finance@swx.test', role: 'finance' }],
      after: async () => chain?.close(),
    },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const enrolled = await enrolStaffByApi(
      server.baseUrl,
      'finance@swx.test',
      oneTimePasswords['finance@swx.test'] ?? '',
    );
    financeToken = enrolled.token;
    finance = staffApi(server, enrolled);
    alice = await registerByApi(server, inbox, 'alice.wallet@example.com');
    bob = await registerByApi(server, inbox, 'bob.wallet@example.com');
  });

  it('tells the demo book that deposits and withdrawals are in the live account (10043)', async () => {
    const demo = customerApi(server, alice, { book: 'demo' });
    for (const answer of [
      await demo.call('getDepositAddress', { network: 'USDT-EVM' }),
      await demo.call('listRecharge'),
      await demo.call('listWithdrwal'),
      await demo.call('listWithdrawalAddresses'),
    ])
      expect(answer.code).toBe(10043);
    expect((await demo.call('listNetworks')).data.map((n) => n.id)).toEqual([
      'BTC-BTC',
      'ETH-EVM',
      'USDT-EVM',
    ]);
  });

  it('credits a deposit sent on chain, seen confirming then credited then available', async () => {
    const me = live(alice);
    const { address } = await me.ok('getDepositAddress', { network: 'USDT-EVM' });
    await chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(150) });
    const confirming = await until(
      () => me.ok('listRecharge'),
      (d) => d.length === 1,
      'the deposit',
    );
    expect(confirming[0]).toMatchObject({
      state: 'confirming',
      amount: '150.000000',
      creditConfirmations: 12,
    });
    await chain.dev.mine(11);
    await until(
      () => me.ok('listRecharge'),
      (d) => d[0]?.state === 'credited',
      'the credit',
    );
    const credited = (await me.ok('getBalances')).balances.find((b) => b.asset === 'USDT');
    // Credited, held until the unlock depth.
    expect(credited).toMatchObject({ balance: '150.000000', held: '150.000000', available: '0.000000' });
    await chain.dev.mine(12);
    await until(
      () => me.ok('listRecharge'),
      (d) => d[0]?.state === 'available',
      'the unlock',
    );
    // Nothing sweeps a deposit address: the treasury reads what sits there, beside the hot wallet.
    const usdt = (await finance.ok('treasury', {})).find((r) => r.asset === 'USDT');
    expect(usdt).toMatchObject({ depositAddresses: '150.000000', depositAddressCount: 1 });
    expect(usdt?.hotWallet).not.toBeNull();
    // BTC has no node here: nothing is read, and it says so.
    expect((await finance.ok('treasury', {})).find((r) => r.asset === 'BTC')).toMatchObject({
      depositAddresses: null,
      hotWallet: null,
    });
    await expectLedgerSound(server);
  });

  it('names the networks the platform can send on: BTC, without a node here, is offered for deposits only', async () => {
    const networks = await live(alice).ok('listNetworks');
    expect(Object.fromEntries(networks.map((n) => [n.id, n.withdrawable]))).toEqual({
      'BTC-BTC': false,
      'ETH-EVM': true,
      'USDT-EVM': true,
    });
    const btc = networks.find((n) => n.id === 'BTC-BTC');
    // The fee rule the withdraw screen states before any address is usable.
    expect(networks.find((n) => n.id === 'USDT-EVM')?.withdrawalFeeRate).toBe('0.005');
    expect(btc).toMatchObject({ watched: false, withdrawable: false });
  });

  it('queues a proof for finance, who see the image; approval credits the exact amount once', async () => {
    const me = live(bob);
    const { address } = await me.ok('getDepositAddress', { network: 'BTC-BTC' });
    const proof = await uploadedId(server.baseUrl, bob.token, 'deposit_proof', await pngImage());
    const body = {
      network: 'BTC-BTC',
      amount: '0.02',
      txHash: 'ab'.repeat(32),
      lastSix: '9f8e7d',
      proof,
      address,
    };
    const below = await me.call('recharge', { ...body, amount: '0.01' });
    expect(below).toMatchObject({ code: 10038, data: { asset: 'BTC', minimum: '0.01500000' } });
    const declared = await me.call('recharge', body);
    expect(declared.code).toBe(20002);
    const id = declared.data.id;
    // Alice sees nothing of Bob's deposit, nor his proof image.
    expect(await live(alice).ok('listRecharge')).not.toContainEqual(expect.objectContaining({ id }));
    const aliceReadsProof = await fetch(`${server.baseUrl}${uploadFileUrl(proof)}`, {
      headers: { authorization: alice.token },
    });
    expect(aliceReadsProof.status).toBe(404);

    const queue = await finance.ok('depositQueue', {});
    expect(queue.map((d) => d.id)).toContain(id);
    const item = await finance.ok('getDeposit', { id });
    expect(item).toMatchObject({ proof, customerAddress: address, lastSix: '9f8e7d' });
    const image = await fetch(`${server.baseUrl}${uploadFileUrl(proof)}`, {
      headers: { authorization: financeToken },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    await finance.ok('claimDeposit', { id });
    expect((await finance.ok('approveDeposit', { id })).state).toBe('available');
    expect((await me.ok('listRecharge'))[0]).toMatchObject({ id, state: 'available' });
    const again = await me.call('recharge', {
      ...body,
      proof: await uploadedId(server.baseUrl, bob.token, 'deposit_proof', await pngImage()),
    });
    expect(again.code).toBe(10042);
    await expectLedgerSound(server);
  });

  it('says on the wire which notices must be read: a credit is routine, a refused proof and the welcome are not', async () => {
    const carol = await registerByApi(server, inbox, 'carol.wallet@example.com');
    const me = live(carol);
    const { address } = await me.ok('getDepositAddress', { network: 'USDT-EVM' });
    await chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(150) });
    await until(
      () => me.ok('listRecharge'),
      (d) => d.length === 1,
      'the deposit',
    );
    await chain.dev.mine(11);
    await until(
      () => me.ok('listRecharge'),
      (d) => d[0]?.state === 'credited',
      'the credit',
    );
    const btc = await me.ok('getDepositAddress', { network: 'BTC-BTC' });
    const declared = await me.ok('recharge', {
      network: 'BTC-BTC',
      amount: '0.02',
      txHash: 'cd'.repeat(32),
      lastSix: '1a2b3c',
      proof: await uploadedId(server.baseUrl, carol.token, 'deposit_proof', await pngImage()),
      address: btc.address,
    });
    await finance.ok('claimDeposit', { id: declared.id });
    await finance.ok('rejectDeposit', { id: declared.id, reason: 'No such transfer arrived.' });

    const notices = await me.ok('getNoticeList', { readState: '0' });
    const told = (start: string) => notices.find((n) => n.noticeContent.startsWith(start));
    expect(told('Your deposit of 150.00 USDT is credited')).toMatchObject({ mustRead: false });
    expect(told('Your declared deposit of 0.02 BTC was not accepted')).toMatchObject({ mustRead: true });
    expect(told('Welcome to SWX')).toMatchObject({ mustRead: true });
  });

  it('keeps addresses to their owner and locks a new one for a day', async () => {
    const added = await live(alice).ok('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address: '0x5555555555555555555555555555555555555555',
      label: 'Cold storage',
    });
    const hours = (Date.parse(added.usableFrom) - Date.parse(added.createdAt)) / 3_600_000;
    expect(hours).toBe(24);
    const quote = await live(alice).call('quoteWithdrawal', {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '130',
    });
    expect(quote.code).toBe(10041);
    expect(await live(bob).ok('listWithdrawalAddresses')).toEqual([]);
    expect((await live(bob).call('removeWithdrawalAddress', { id: added.id })).code).toBe(10028);
    expect(
      (await live(bob).call('quoteWithdrawal', { network: 'USDT-EVM', addressId: added.id, amount: '130' }))
        .code,
    ).toBe(10021);
    expect((await live(bob).call('quoteWithdrawal', { addressId: added.id, amount: '130' })).code).toBe(
      10025,
    );
  });
});

/**
 * Two nodes on one PostgreSQL database and one chain: both watchers credit a deposit once, and 64
 * withdrawals of the whole balance sent to both nodes at once hold it once.
 */
describe('the wallet on two nodes sharing PostgreSQL and a chain', () => {
  let chain: TestChain;
  let database: TestDatabase;
  let inbox: Inbox;
  const nodes: RunningServer[] = [];
  beforeAll(async () => {
    [chain, database, inbox] = await Promise.all([
      startTestChain(),
      openTestDatabase({ kind: 'postgres', migrated: false }),
      startInbox(),
    ]);
    const env = {
      ...chain.env,
      DATABASE_URL: database.url ?? '',
      SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
      WALLET_POLL_MS: '100',
    };
    nodes.push(await startServer({ ...env, NODE_ID: 'wallet-a' }));
    nodes.push(await startServer({ ...env, NODE_ID: 'wallet-b' }));
  }, 240_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await Promise.all([chain?.close(), inbox?.close()]);
    await database?.close();
  });

  it('credits once, and holds the balance once for 64 concurrent withdrawals of all of it', async () => {
    const [a, b] = nodes as [RunningServer, RunningServer];
    const session = await registerByApi(a, inbox, 'carol.nodes@example.com');
    const onA: CustomerApi = customerApi(a, session, { book: 'live' });
    const onB: CustomerApi = customerApi(b, session, { book: 'live' });
    const { address } = await onA.ok('getDepositAddress', { network: 'USDT-EVM' });
    await chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(400) });
    await chain.dev.mine(30);
    await until(
      () => onB.ok('listRecharge'),
      (d) => d[0]?.state === 'available',
      'the deposit on both nodes',
    );
    const added = await onA.ok('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address: '0x6666666666666666666666666666666666666666',
      label: '',
    });
    // The address was added a day and a minute ago (the database's clock is the nodes' clock).
    await database.db.query(
      "UPDATE wallet_addresses SET created_at = now() - interval '25 hours' WHERE id = $1",
      [added.id],
    );
    await database.db.query("UPDATE users SET password_changed_at = now() - interval '25 hours'");
    const quote = await onA.ok('quoteWithdrawal', {
      network: 'USDT-EVM',
      addressId: added.id,
      amount: '400',
    });
    expect(quote).toMatchObject({ fee: '2.000000', receive: '398.000000' });
    await onB.ok('sendWithdrawalCode', { quoteId: quote.quoteId });
    const code = await inbox.codeFor('carol.nodes@example.com');
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        (i % 2 ? onA : onB).call('withdrawal', {
          quoteId: quote.quoteId,
          requestId: `carol-${i}-race`,
          code,
        }),
      ),
    );
    expect(answers.filter((x) => x.code === 20003)).toHaveLength(1);
    const withdrawals = await onA.ok('listWithdrwal');
    expect(withdrawals).toHaveLength(1);
    expect(withdrawals[0]).toMatchObject({ amount: '400.000000', fee: '2.000000', state: 'pending_review' });
    const held = await database.db.query<{ held: string }>(
      "SELECT held::text FROM ledger_accounts WHERE owner_id IS NOT NULL AND asset = 'USDT' AND book = 'live' AND held > 0",
    );
    expect(held.map((r) => r.held)).toEqual([String(USDT(400))]);
  }, 120_000);
});
