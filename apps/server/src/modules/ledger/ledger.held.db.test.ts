import type { Asset, EntryKind } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { AuditService } from '../audit/audit.service.ts';
import { EARN, type HeldBalance, LedgerService, MARGIN, SMART } from './ledger.service.ts';

/*
 * What holds a customer's money, as the balance page says it (issue 41, item 15): the held
 * figure broken down by reason from the ledger's own holds and sub-accounts, adding up exactly.
 */

let t: TestDatabase;
let ledger: LedgerService;
let audit: AuditService;
let nextUser = 5000;

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
const key = (what: string) => `${what}-${++keys}-held-test`;

/** A customer with `amount` deposited to their live wallet in `asset`. */
async function funded(asset: Asset, amount: bigint): Promise<{ user: number; wallet: number }> {
  const user = nextUser++;
  await ledger.openCustomerBooks(user);
  const wallet = await ledger.walletAccount('live', user, asset);
  await ledger.transfer({
    book: 'live',
    kind: 'deposit',
    idempotencyKey: key('deposit'),
    actor: 'test',
    postings: [
      { accountId: await ledger.systemAccount('live', asset, 'external_clearing'), amount: -amount },
      { accountId: wallet, amount },
    ],
  });
  return { user, wallet };
}

const hold = (wallet: number, amount: bigint, reference: string | null) =>
  ledger.hold({
    book: 'live',
    accountId: wallet,
    amount,
    idempotencyKey: key('hold'),
    actor: 'test',
    reference,
  });

/** Moves money from the wallet to one of the customer's held sub-accounts (margin, earn, smart). */
async function into(user: number, wallet: number, kind: string, entryKind: EntryKind, amount: bigint) {
  await ledger.transfer({
    book: 'live',
    kind: entryKind,
    idempotencyKey: key('sub'),
    actor: 'test',
    postings: [
      { accountId: wallet, amount: -amount },
      { accountId: await ledger.accountId('live', user, 'USDT', kind), amount },
    ],
  });
}

const partsSum = (b: HeldBalance) => b.heldBy.reduce((sum, part) => sum + part.amount, 0n);

describe(`held money by what holds it, on ${TEST_DB}`, () => {
  it('names each hold and sub-account (deposit, withdrawal, margin, earn, smart, other) and adds up to the held figure', async () => {
    const { user, wallet } = await funded('USDT', USDT(1_000));
    // Held on the wallet: a chain deposit locked until its unlock depth, a withdrawal on its way,
    // a hold nobody names (and one with no reference); a voided and a posted hold hold nothing.
    await hold(wallet, USDT(100), 'deposit:77');
    await hold(wallet, USDT(250), 'withdrawal-request:0b6f1c1e-2d1a-4a57-9a6b-2f3c4d5e6f70');
    await hold(wallet, USDT(5), 'something-else:1');
    await hold(wallet, USDT(2), null);
    const voided = await hold(wallet, USDT(40), 'withdrawal-request:void');
    await ledger.voidHold({ holdId: voided.holdId, idempotencyKey: key('void'), actor: 'test' });
    const posted = await hold(wallet, USDT(30), 'withdrawal-request:sent');
    await ledger.postHold({
      holdId: posted.holdId,
      toAccountId: await ledger.systemAccount('live', 'USDT', 'pending_withdrawals'),
      amount: USDT(30),
      kind: 'withdrawal',
      idempotencyKey: key('post'),
      actor: 'test',
    });
    // Held in sub-accounts: margin of open positions, earn principal, smart plans.
    await into(user, wallet, MARGIN, 'trade_margin', USDT(300));
    await into(user, wallet, EARN, 'earn_subscribe', USDT(50));
    await into(user, wallet, SMART, 'smart_subscribe', USDT(20));
    // Another customer's hold and another asset's are not this row's.
    const other = await funded('USDT', USDT(10));
    await hold(other.wallet, USDT(10), 'deposit:78');
    const btc = await ledger.walletAccount('live', user, 'BTC');
    await ledger.transfer({
      book: 'live',
      kind: 'deposit',
      idempotencyKey: key('btc'),
      actor: 'test',
      postings: [
        { accountId: await ledger.systemAccount('live', 'BTC', 'external_clearing'), amount: -1_000n },
        { accountId: btc, amount: 1_000n },
      ],
    });
    await hold(btc, 600n, 'deposit:79');

    const rows = await ledger.heldBalances('live', user);
    const usdt = rows.find((r) => r.asset === 'USDT');
    expect(usdt?.heldBy).toEqual([
      { reason: 'deposit', amount: USDT(100) },
      { reason: 'withdrawal', amount: USDT(250) },
      { reason: 'margin', amount: USDT(300) },
      { reason: 'earn', amount: USDT(50) },
      { reason: 'smart', amount: USDT(20) },
      { reason: 'other', amount: USDT(7) },
    ]);
    expect(usdt).toMatchObject({ balance: USDT(970), held: USDT(727), available: USDT(243) });
    expect(rows.find((r) => r.asset === 'BTC')?.heldBy).toEqual([{ reason: 'deposit', amount: 600n }]);
    // The same figures as the plain read, and every row's parts add up to its held figure.
    expect(rows.map(({ heldBy: _, ...plain }) => plain)).toEqual(await ledger.balances('live', user));
    for (const row of rows) expect(partsSum(row), row.asset).toBe(row.held);
    // Nothing held: no parts.
    expect((await ledger.heldBalances('demo', user)).every((r) => r.heldBy.length === 0)).toBe(true);
    // The wire: decimal strings, held by reason next to held (valued balances feed getBalances).
    const valued = await ledger.valuedBalances('live', user, () => null);
    expect(valued.balances.find((r) => r.asset === 'USDT')?.heldBy).toEqual(usdt?.heldBy);
  });

  it('adds up exactly whatever holds come and go', async () => {
    const { user, wallet } = await funded('USDT', USDT(100_000));
    const margin = await ledger.accountId('live', user, 'USDT', MARGIN);
    const pending: number[] = [];
    const step = fc.oneof(
      fc.record({
        op: fc.constant('hold' as const),
        amount: fc.bigInt({ min: 1n, max: USDT(50) }),
        reference: fc.constantFrom('deposit:1', 'withdrawal-request:x', 'loan-apply:3', null),
      }),
      fc.record({ op: fc.constantFrom('void' as const, 'post' as const), pick: fc.nat() }),
      fc.record({ op: fc.constant('margin' as const), amount: fc.bigInt({ min: -USDT(20), max: USDT(20) }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        for (const s of steps) {
          if (s.op === 'hold') pending.push((await hold(wallet, s.amount, s.reference)).holdId);
          else if (s.op === 'margin') {
            const inMargin = (await ledger.account(margin))?.balance ?? 0n;
            const amount = s.amount < 0n && -s.amount > inMargin ? -inMargin : s.amount;
            if (amount !== 0n) await into(user, wallet, MARGIN, 'trade_margin', amount);
          } else if (pending.length > 0) {
            const [holdId] = pending.splice(s.pick % pending.length, 1) as [number];
            if (s.op === 'void')
              await ledger.voidHold({ holdId, idempotencyKey: key('void'), actor: 'test' });
            else
              await ledger.postHold({
                holdId,
                toAccountId: await ledger.systemAccount('live', 'USDT', 'pending_withdrawals'),
                amount: 1n,
                kind: 'withdrawal',
                idempotencyKey: key('post'),
                actor: 'test',
              });
          }
          const usdt = (await ledger.heldBalances('live', user)).find((r) => r.asset === 'USDT');
          if (!usdt) throw new Error('no USDT row');
          expect(partsSum(usdt)).toBe(usdt.held);
          expect(usdt.heldBy.every((part) => part.amount > 0n)).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('posts a hold to two accounts in ONE entry (a sale and its platform fee), at most the hold, once', async () => {
    const { wallet } = await funded('USDT', USDT(100));
    const held = await hold(wallet, USDT(100), 'nft:test');
    const charity = await ledger.systemAccount('live', 'USDT', 'charity');
    const fees = await ledger.systemAccount('live', 'USDT', 'fees');
    const balance = async (id: number) => (await ledger.account(id))?.balance ?? 0n;
    const [c0, f0] = [await balance(charity), await balance(fees)];
    const post = (charityPart: bigint, fee: bigint, idempotencyKey: string) =>
      ledger.postHold({
        holdId: held.holdId,
        toAccountId: charity,
        amount: charityPart,
        also: { accountId: fees, amount: fee },
        kind: 'nft',
        idempotencyKey,
        actor: 'test',
      });
    await expect(post(USDT(90), USDT(11), key('post'))).rejects.toThrow(/at most its amount/);
    const saleKey = key('post');
    const posted = await post(USDT(90), USDT(10), saleKey);
    expect((await post(USDT(90), USDT(10), saleKey)).entryId).toBe(posted.entryId);
    expect([await balance(charity), await balance(fees), await balance(wallet)]).toEqual([
      c0 + USDT(90),
      f0 + USDT(10),
      0n,
    ]);
    const postings = await t.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM ledger_postings WHERE entry_id = $1',
      [posted.entryId],
    );
    expect(postings[0]?.n).toBe('3');
  });
});
