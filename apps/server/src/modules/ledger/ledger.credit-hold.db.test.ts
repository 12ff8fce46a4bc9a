import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { AuditService } from '../audit/audit.service.ts';
import { MAX_BATCH } from './ledger.operations.ts';
import { LedgerError, LedgerService, MARGIN, type TransferRequest } from './ledger.service.ts';

/*
 * A transfer that holds what it credits (`holdCredit`, issue 39 item 2): the credit and its hold
 * are one operation, so the credited amount is never available in between; many such transfers
 * go in one batch (`transfers`). And its mirror (`releaseAndTransfer`, issue 38): a hold released
 * and an entry written as one operation, the balance checked after the release, both or neither,
 * idempotent, and a competing spend can never take the held money in between.
 */

let t: TestDatabase;
let ledger: LedgerService;
let audit: AuditService;
let nextUser = 7000;

beforeAll(async () => {
  t = await openTestDatabase();
  audit = new AuditService(t.db);
  ledger = new LedgerService(t.db, audit);
  await ledger.ensureSystemAccounts();
});
afterAll(() => t.close());
afterEach(() => expectLedgerSound({ db: t.db, ledger, audit }));

const USDT = (units: number) => BigInt(units) * 1_000_000n;
let keys = 0;
const key = (what: string) => `${what}-${++keys}-credit-hold-test`;

async function customer(): Promise<{ user: number; wallet: number }> {
  const user = nextUser++;
  return { user, wallet: await ledger.walletAccount('live', user, 'USDT') };
}

async function credit(wallet: number, amount: bigint, holdKey = key('lock')): Promise<TransferRequest> {
  return {
    book: 'live',
    kind: 'deposit',
    idempotencyKey: key('credit'),
    actor: 'test',
    reference: 'deposit:test',
    postings: [
      { accountId: await ledger.systemAccount('live', 'USDT', 'external_clearing'), amount: -amount },
      { accountId: wallet, amount },
    ],
    holdCredit: { accountId: wallet, idempotencyKey: holdKey, reference: 'deposit:test' },
  };
}

const usdtOf = async (user: number) =>
  (await ledger.balances('live', user)).find((b) => b.asset === 'USDT') ?? { balance: 0n, held: 0n };

describe(`a transfer that holds what it credits, ${TEST_DB}`, () => {
  it('credits and holds in one operation: balance and held grow together, the hold is an ordinary one', async () => {
    const a = await customer();
    const request = await credit(a.wallet, USDT(150));
    const done = await ledger.transfer(request);
    expect(done.holdId).toBeGreaterThan(0);
    expect(await usdtOf(a.user)).toMatchObject({ balance: USDT(150), held: USDT(150), available: 0n });
    const [hold] = await t.db.query<{ status: string; amount: string; reference: string }>(
      'SELECT status, amount::text, reference FROM ledger_holds WHERE id = $1',
      [done.holdId],
    );
    expect(hold).toEqual({ status: 'pending', amount: USDT(150).toString(), reference: 'deposit:test' });

    // Replayed (a rerun, a second node, a restart): the same entry and hold, nothing written again.
    const again = await ledger.transfer(request);
    expect(again).toMatchObject({ entryId: done.entryId, holdId: done.holdId, replayed: true });
    expect(await usdtOf(a.user)).toMatchObject({ balance: USDT(150), held: USDT(150) });

    // Released like any hold: available then.
    await ledger.voidHold({ holdId: done.holdId ?? 0, idempotencyKey: key('unlock'), actor: 'test' });
    expect(await usdtOf(a.user)).toMatchObject({ balance: USDT(150), held: 0n, available: USDT(150) });
  });

  it('is never available before its hold: a spend racing the credit is refused, in any order of the queue', async () => {
    const a = await customer();
    const out = await ledger.systemAccount('live', 'USDT', 'pending_withdrawals');
    const spend = () =>
      ledger.transfer({
        book: 'live',
        kind: 'withdrawal',
        idempotencyKey: key('spend'),
        actor: 'test',
        postings: [
          { accountId: a.wallet, amount: -USDT(100) },
          { accountId: out, amount: USDT(100) },
        ],
      });
    // Queued right behind the credit, in the same tick, then again behind a batch of credits.
    const results = await Promise.allSettled([ledger.transfer(await credit(a.wallet, USDT(100))), spend()]);
    expect(results[0]?.status).toBe('fulfilled');
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { reason: 'insufficient_funds' } });
    const batch = ledger.transfers([await credit(a.wallet, USDT(100))]);
    await expect(spend()).rejects.toSatisfy(
      (e) => e instanceof LedgerError && e.reason === 'insufficient_funds',
    );
    expect((await batch)[0]?.status).toBe('fulfilled');
    expect(await usdtOf(a.user)).toMatchObject({ balance: USDT(200), held: USDT(200), available: 0n });
  });

  it('refuses a hold it cannot place: on an account it debits, under a key another hold has', async () => {
    const a = await customer();
    const clearing = await ledger.systemAccount('live', 'USDT', 'external_clearing');
    const debited = {
      ...(await credit(a.wallet, USDT(5))),
      holdCredit: { accountId: clearing, idempotencyKey: key('lock') },
    };
    await expect(ledger.transfer(debited)).rejects.toSatisfy(
      (e) => e instanceof LedgerError && e.reason === 'invalid_request',
    );
    const taken = key('lock');
    const b = await customer();
    // The key of a hold another transfer placed.
    await ledger.transfer(await credit(b.wallet, USDT(7), taken));
    await expect(ledger.transfer(await credit(a.wallet, USDT(5), taken))).rejects.toSatisfy(
      (e) => e instanceof LedgerError && e.reason === 'idempotency_conflict',
    );
    // Two in one batch under one hold key: the second is refused.
    const shared = key('lock');
    const [first, second] = await ledger.transfers([
      await credit(a.wallet, USDT(5), shared),
      await credit(a.wallet, USDT(6), shared),
    ]);
    expect(first?.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { reason: 'idempotency_conflict' } });
    expect(await usdtOf(a.user)).toMatchObject({ balance: USDT(5), held: USDT(5) });
  });

  it('puts a whole block of credits in one batch, beyond the batch size, each answered on its own', async () => {
    const n = MAX_BATCH + 88;
    const owners = await Promise.all(Array.from({ length: n }, () => customer()));
    const requests = await Promise.all(owners.map((o) => credit(o.wallet, USDT(3))));
    const before = ledger.stats.batches;
    const answers = await ledger.transfers(requests);
    expect(ledger.stats.batches - before).toBe(1);
    expect(answers.every((a) => a.status === 'fulfilled')).toBe(true);
    for (const o of owners.slice(0, 3))
      expect(await usdtOf(o.user)).toMatchObject({ balance: USDT(3), held: USDT(3), available: 0n });
    // The block again (a rerun): every credit replayed with its hold, nothing new.
    const rerun = await ledger.transfers(requests);
    expect(rerun.map((a) => (a.status === 'fulfilled' ? [a.value.replayed, a.value.holdId] : null))).toEqual(
      answers.map((a) => (a.status === 'fulfilled' ? [true, a.value.holdId] : null)),
    );
  });
});

/** A customer with `free` USDT in the live wallet and `held` more under a pending hold (a credit's). */
async function holding(free: number, held: number) {
  const c = await customer();
  const { holdCredit: _free, ...deposit } = await credit(c.wallet, USDT(free));
  await ledger.transfer(deposit);
  const { holdId } = await ledger.transfer(await credit(c.wallet, USDT(held)));
  return { ...c, holdId: holdId ?? 0 };
}

/** Wallet → the customer's margin account: `amount` leaves what is free after the release. */
async function toMargin(c: { user: number; wallet: number }, amount: bigint): Promise<TransferRequest> {
  return {
    book: 'live',
    kind: 'trade_margin',
    idempotencyKey: key('open'),
    actor: 'test',
    postings: [
      { accountId: c.wallet, amount: -amount },
      { accountId: await ledger.accountId('live', c.user, 'USDT', MARGIN), amount },
    ],
  };
}

/** A withdrawal of `amount` from the wallet (what is free of holds only). */
async function withdrawal(wallet: number, amount: bigint): Promise<TransferRequest> {
  return {
    book: 'live',
    kind: 'withdrawal',
    idempotencyKey: key('withdraw'),
    actor: 'test',
    postings: [
      { accountId: wallet, amount: -amount },
      { accountId: await ledger.systemAccount('live', 'USDT', 'pending_withdrawals'), amount },
    ],
  };
}

const holdStatus = async (holdId: number) =>
  (await t.db.query<{ status: string }>('SELECT status FROM ledger_holds WHERE id = $1', [holdId]))[0]
    ?.status;
const reason = async (run: Promise<unknown>) => {
  try {
    await run;
  } catch (error) {
    if (error instanceof LedgerError) return error.reason;
    throw error;
  }
  return 'done';
};

describe(`a hold released and an entry written as one operation (releaseAndTransfer), ${TEST_DB}`, () => {
  it('checks the balance after the release: the held money and the free money both pay the entry; audited', async () => {
    const c = await holding(700, 300);
    // All 1,000: more than the 700 free, payable only with the 300 the hold releases.
    const request = await toMargin(c, USDT(1000));
    expect(await reason(ledger.transfer(request))).toBe('insufficient_funds');
    const done = await ledger.releaseAndTransfer(c.holdId, request);
    expect(await usdtOf(c.user)).toMatchObject({ balance: USDT(1000), held: USDT(1000) }); // now margin
    expect(await holdStatus(c.holdId)).toBe('voided');
    const [row] = await audit.search({ subject: `ledger_entry:${done.entryId}`, limit: 5 });
    expect(String(row?.data)).toContain(`"released":{"amount":"${USDT(300)}","hold":${c.holdId}}`);

    // What the entry does not take of the hold is free again.
    const d = await holding(700, 300);
    await ledger.releaseAndTransfer(d.holdId, await toMargin(d, USDT(100)));
    const after = await ledger.balances('live', d.user);
    expect(after.find((b) => b.asset === 'USDT')).toMatchObject({ available: USDT(900) });
  });

  it('writes both or neither: a refused entry leaves the hold pending, a hold no longer pending writes no entry', async () => {
    const c = await holding(700, 300);
    const tooMuch = await toMargin(c, USDT(1001));
    expect(await reason(ledger.releaseAndTransfer(c.holdId, tooMuch))).toBe('insufficient_funds');
    expect(await holdStatus(c.holdId)).toBe('pending');
    expect(await usdtOf(c.user)).toMatchObject({ balance: USDT(1000), held: USDT(300) });
    const entries = await t.db.query('SELECT id FROM ledger_entries WHERE idempotency_key = $1', [
      tooMuch.idempotencyKey,
    ]);
    expect(entries).toEqual([]);

    await ledger.voidHold({ holdId: c.holdId, idempotencyKey: key('void'), actor: 'test' });
    const late = await toMargin(c, USDT(100));
    expect(await reason(ledger.releaseAndTransfer(c.holdId, late))).toBe('hold_not_pending');
    expect(await usdtOf(c.user)).toMatchObject({ balance: USDT(1000), held: 0n });
    // Another book's hold is not released by this book's entry.
    const demoWallet = await ledger.walletAccount('demo', c.user, 'USDT');
    await ledger.transfer({
      book: 'demo',
      kind: 'demo_funding',
      idempotencyKey: key('demo-fund'),
      actor: 'test',
      postings: [
        { accountId: await ledger.systemAccount('demo', 'USDT', 'demo_issuance'), amount: -USDT(10) },
        { accountId: demoWallet, amount: USDT(10) },
      ],
    });
    const demo = await ledger.hold({
      book: 'demo',
      accountId: demoWallet,
      amount: USDT(10),
      idempotencyKey: key('demo-hold'),
      actor: 'test',
    });
    expect(await reason(ledger.releaseAndTransfer(demo.holdId, late))).toBe('invalid_request');
    expect(await holdStatus(demo.holdId)).toBe('pending');
    await ledger.voidHold({ holdId: demo.holdId, idempotencyKey: key('demo-void'), actor: 'test' });
  });

  it('is idempotent: the same request answers the first entry; the key with another hold is a conflict', async () => {
    const c = await holding(700, 300);
    const request = await toMargin(c, USDT(400));
    const first = await ledger.releaseAndTransfer(c.holdId, request);
    const again = await ledger.releaseAndTransfer(c.holdId, request);
    expect(again).toMatchObject({ entryId: first.entryId, replayed: true });
    const [both] = await Promise.all([
      ledger.releaseAndTransfer(c.holdId, request),
      ledger.releaseAndTransfer(c.holdId, request),
    ]);
    expect(both.entryId).toBe(first.entryId);
    expect(await usdtOf(c.user)).toMatchObject({ balance: USDT(1000), held: USDT(400) });
    const d = await holding(700, 300);
    expect(await reason(ledger.releaseAndTransfer(d.holdId, request))).toBe('idempotency_conflict');
    expect(await holdStatus(d.holdId)).toBe('pending');
  });

  it('a withdrawal of everything racing it never takes the held money, in either order of the queue', async () => {
    for (const withdrawFirst of [true, false]) {
      const c = await holding(700, 300);
      const open = await toMargin(c, USDT(300));
      const all = await withdrawal(c.wallet, USDT(1000));
      const runs = withdrawFirst
        ? [reason(ledger.transfer(all)), reason(ledger.releaseAndTransfer(c.holdId, open))]
        : [reason(ledger.releaseAndTransfer(c.holdId, open)), reason(ledger.transfer(all))];
      const [a, b] = await Promise.all(runs);
      expect(withdrawFirst ? [a, b] : [b, a]).toEqual(['insufficient_funds', 'done']);
      // The free 700 is all a withdrawal can take; the 300 opened the entry.
      expect(await reason(ledger.transfer(await withdrawal(c.wallet, USDT(700))))).toBe('done');
      expect(await usdtOf(c.user)).toMatchObject({ balance: USDT(300), held: USDT(300) });
    }
  });
});
