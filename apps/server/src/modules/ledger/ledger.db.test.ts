import { type Asset, BOOKS, type Book, Code } from '@swx/contract';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { AuditService, auditVerdictText } from '../audit/audit.service.ts';
import {
  ASSETS,
  DEMO_FUNDING_MINOR,
  LedgerError,
  LedgerService,
  SYSTEM_KINDS,
  type SystemKind,
} from './ledger.service.ts';

let t: TestDatabase;
let ledger: LedgerService;
let audit: AuditService;
let nextUser = 1000;

beforeAll(async () => {
  t = await openTestDatabase();
  audit = new AuditService(t.db);
  ledger = new LedgerService(t.db, audit);
  await ledger.ensureSystemAccounts();
});
afterAll(() => t.close());

// After every test: postings net to zero per entry, asset and book, no customer balance is negative,
// every stored balance equals its postings, and the audit chain verifies.
afterEach(() => expectLedgerSound({ db: t.db, ledger, audit }));

const USDT = (units: number) => BigInt(units) * 1_000_000n;
const rejectsWith = (reason: string) => (e: unknown) => e instanceof LedgerError && e.reason === reason;

async function newCustomer(): Promise<number> {
  const id = nextUser++;
  await ledger.openCustomerBooks(id);
  return id;
}

describe(`ledger on ${TEST_DB}`, () => {
  it('opens demo and live books; the demo book starts with 100,000 virtual USDT, the live book empty', async () => {
    const user = await newCustomer();
    const demo = await ledger.balances('demo', user);
    const live = await ledger.balances('live', user);
    expect(demo.find((b) => b.asset === 'USDT')).toMatchObject({
      balance: DEMO_FUNDING_MINOR,
      held: 0n,
      available: DEMO_FUNDING_MINOR,
    });
    expect(live.every((b) => b.balance === 0n)).toBe(true);
    expect(DEMO_FUNDING_MINOR).toBe(100_000_000_000n); // 100,000 × 10^6
    // Opening again changes nothing: the funding entry is idempotent.
    await ledger.openCustomerBooks(user);
    expect((await ledger.balances('demo', user)).find((b) => b.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR,
    );
  });

  it('makes each system account once, allowed below zero; a second start, or a second service, finds the same ids', async () => {
    const rows = () =>
      t.db.query<{ id: string; book: string; asset: string; kind: string; allow_negative: boolean }>(
        'SELECT id, book, asset, kind, allow_negative FROM ledger_accounts WHERE owner_id IS NULL AND kind = ANY($1::text[]) ORDER BY id',
        [[...SYSTEM_KINDS]],
      );
    const before = await rows();
    expect(before).toHaveLength(BOOKS.length * ASSETS.length * SYSTEM_KINDS.length);
    expect(before.every((r) => r.allow_negative)).toBe(true);
    await ledger.ensureSystemAccounts();
    const fresh = new LedgerService(t.db, audit);
    await fresh.ensureSystemAccounts();
    expect(await rows()).toEqual(before);
    for (const r of before)
      expect(await fresh.systemAccount(r.book as Book, r.asset as Asset, r.kind as SystemKind)).toBe(
        Number(r.id),
      );
  });

  it('moves money with balanced postings and refuses overdrafts, leaving nothing behind', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const from = await ledger.walletAccount('demo', a, 'USDT');
    const to = await ledger.walletAccount('demo', b, 'USDT');
    await ledger.transfer({
      book: 'demo',
      kind: 'transfer',
      idempotencyKey: `t-key-${a}-1`,
      actor: 'test',
      postings: [
        { accountId: from, amount: -USDT(250) },
        { accountId: to, amount: USDT(250) },
      ],
    });
    expect((await ledger.balances('demo', a))[0]).toBeDefined();
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR - USDT(250),
    );
    await expect(
      ledger.transfer({
        book: 'demo',
        kind: 'transfer',
        idempotencyKey: `t-key-${a}-2`,
        actor: 'test',
        postings: [
          { accountId: from, amount: -DEMO_FUNDING_MINOR },
          { accountId: to, amount: DEMO_FUNDING_MINOR },
        ],
      }),
    ).rejects.toSatisfy(rejectsWith('insufficient_funds'));
    await expect(
      ledger.transfer({
        book: 'demo',
        kind: 'transfer',
        idempotencyKey: `t-key-${a}-3`,
        actor: 'test',
        postings: [
          { accountId: from, amount: -1n },
          { accountId: to, amount: 2n },
        ],
      }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
  });

  it('dates an entry by the service clock (a sandbox clock days ahead), as the product that writes it', async () => {
    const ahead = Date.parse('2031-03-04T05:06:07.000Z');
    const clocked = new LedgerService(t.db, audit, undefined, { now: () => ahead });
    const a = await newCustomer();
    const b = await newCustomer();
    const from = await clocked.walletAccount('demo', a, 'USDT');
    const to = await clocked.walletAccount('demo', b, 'USDT');
    const written = await clocked.transfer({
      book: 'demo',
      kind: 'transfer',
      idempotencyKey: `clocked-${a}`,
      actor: 'test',
      postings: [
        { accountId: from, amount: -USDT(1) },
        { accountId: to, amount: USDT(1) },
      ],
    });
    expect(written.createdAt).toBe('2031-03-04T05:06:07.000Z');
  });

  it('refuses a posting that crosses books', async () => {
    const a = await newCustomer();
    const demo = await ledger.walletAccount('demo', a, 'USDT');
    const live = await ledger.walletAccount('live', a, 'USDT');
    await expect(
      ledger.transfer({
        book: 'demo',
        kind: 'transfer',
        idempotencyKey: `x-key-${a}-1`,
        actor: 'test',
        postings: [
          { accountId: demo, amount: -1n },
          { accountId: live, amount: 1n },
        ],
      }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
  });

  it('replays an idempotency key with the first result and refuses it for a different request', async () => {
    const a = await newCustomer();
    const from = await ledger.walletAccount('demo', a, 'USDT');
    const fees = await ledger.systemAccount('demo', 'USDT', 'fees');
    const request = {
      book: 'demo' as const,
      kind: 'fee' as const,
      idempotencyKey: `idem-key-${a}`,
      actor: 'test',
      postings: [
        { accountId: from, amount: -USDT(1) },
        { accountId: fees, amount: USDT(1) },
      ],
    };
    const first = await ledger.transfer(request);
    const again = await ledger.transfer(request);
    expect(again).toEqual({ ...first, replayed: true });
    await expect(
      ledger.transfer({
        ...request,
        postings: [
          { accountId: from, amount: -USDT(2) },
          { accountId: fees, amount: USDT(2) },
        ],
      }),
    ).rejects.toSatisfy(rejectsWith('idempotency_conflict'));
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR - USDT(1),
    );
  });

  it('holds, then posts or voids; available excludes what is held', async () => {
    const a = await newCustomer();
    const wallet = await ledger.walletAccount('demo', a, 'USDT');
    const house = await ledger.systemAccount('demo', 'USDT', 'house_pnl');
    const { holdId } = await ledger.hold({
      book: 'demo',
      accountId: wallet,
      amount: USDT(60_000),
      idempotencyKey: `h-key-${a}-1`,
      actor: 'test',
    });
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')).toMatchObject({
      held: USDT(60_000),
      available: USDT(40_000),
    });
    // A second hold beyond what is available is refused.
    await expect(
      ledger.hold({
        book: 'demo',
        accountId: wallet,
        amount: USDT(40_001),
        idempotencyKey: `h-key-${a}-2`,
        actor: 'test',
      }),
    ).rejects.toSatisfy(rejectsWith('insufficient_funds'));
    // Post part of it: 10,000 moves to the house, the remaining 50,000 is released.
    await ledger.postHold({
      holdId,
      toAccountId: house,
      amount: USDT(10_000),
      kind: 'trade_pnl',
      idempotencyKey: `p-key-${a}-1`,
      actor: 'test',
    });
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')).toMatchObject({
      balance: USDT(90_000),
      held: 0n,
      available: USDT(90_000),
    });
    await expect(
      ledger.voidHold({ holdId, idempotencyKey: `v-key-${a}-1`, actor: 'test' }),
    ).rejects.toSatisfy(rejectsWith('hold_not_pending'));
    const second = await ledger.hold({
      book: 'demo',
      accountId: wallet,
      amount: USDT(5),
      idempotencyKey: `h-key-${a}-3`,
      actor: 'test',
    });
    await ledger.voidHold({ holdId: second.holdId, idempotencyKey: `v-key-${a}-2`, actor: 'test' });
    expect(
      await ledger.voidHold({ holdId: second.holdId, idempotencyKey: `v-key-${a}-2`, actor: 'test' }),
    ).toEqual({ holdId: second.holdId, replayed: true });
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.held).toBe(0n);
  });

  it('corrects only by reversal: the original stays, a linked entry negates it, and only once', async () => {
    const a = await newCustomer();
    const wallet = await ledger.walletAccount('demo', a, 'USDT');
    const fees = await ledger.systemAccount('demo', 'USDT', 'fees');
    const fee = await ledger.transfer({
      book: 'demo',
      kind: 'fee',
      idempotencyKey: `f-key-${a}`,
      actor: 'test',
      postings: [
        { accountId: wallet, amount: -USDT(3) },
        { accountId: fees, amount: USDT(3) },
      ],
    });
    await ledger.reverse(fee.entryId, {
      actor: 'staff:1',
      reason: 'fee charged twice',
      idempotencyKey: `r-key-${a}`,
    });
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR,
    );
    await expect(
      ledger.reverse(fee.entryId, { actor: 'staff:1', reason: 'again', idempotencyKey: `r2-key-${a}` }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
    const lines = await ledger.entriesOf('demo', a, { limit: 10 });
    expect(lines.map((l) => l.kind)).toEqual(['reversal', 'fee', 'demo_funding']);
    expect(lines[1]?.reversedBy).toBe(lines[0]?.entryId);
  });

  it('resets a demo book to 100,000 USDT and nothing else', async () => {
    const a = await newCustomer();
    const wallet = await ledger.walletAccount('demo', a, 'USDT');
    const house = await ledger.systemAccount('demo', 'USDT', 'house_pnl');
    await ledger.transfer({
      book: 'demo',
      kind: 'trade_pnl',
      idempotencyKey: `l-key-${a}`,
      actor: 'test',
      postings: [
        { accountId: wallet, amount: -USDT(777) },
        { accountId: house, amount: USDT(777) },
      ],
    });
    await ledger.resetDemo(a, 'first');
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR,
    );
    expect(await ledger.resetDemo(a, 'second')).toBeNull();
  });

  it('is guarded by the database itself, whatever code writes', async () => {
    const a = await newCustomer();
    const wallet = await ledger.walletAccount('demo', a, 'USDT');
    const live = await ledger.walletAccount('live', a, 'USDT');
    const fees = await ledger.systemAccount('demo', 'USDT', 'fees');
    // A customer balance below zero.
    await expect(
      t.db.query('UPDATE ledger_accounts SET balance = -1 WHERE id = $1', [wallet]),
    ).rejects.toThrow();
    // Postings that do not net to zero.
    await expect(
      t.db.transaction(async (tx) => {
        const [e] = await tx.query<{ id: string }>(
          "INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, actor) VALUES ('demo', 'xx', 'raw-unbalanced', 'h', 'test') RETURNING id",
        );
        await tx.query(
          "INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES ($1, $2, 'demo', 'USDT', -5), ($1, $3, 'demo', 'USDT', 4)",
          [e?.id, wallet, fees],
        );
      }),
    ).rejects.toThrow(/net to zero/);
    // A balanced entry, then a later statement that adds one posting to it: refused too (the check
    // reads what each statement inserts, and every entry was at zero before it).
    const issuance = await ledger.systemAccount('demo', 'USDT', 'demo_issuance');
    await expect(
      t.db.transaction(async (tx) => {
        const [e] = await tx.query<{ id: string }>(
          "INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, actor) VALUES ('demo', 'xx', 'raw-added-later', 'h', 'test') RETURNING id",
        );
        await tx.query(
          "INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES ($1, $2, 'demo', 'USDT', -5), ($1, $3, 'demo', 'USDT', 5)",
          [e?.id, wallet, fees],
        );
        await tx.query(
          "INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES ($1, $2, 'demo', 'USDT', 3)",
          [e?.id, issuance],
        );
      }),
    ).rejects.toThrow(/net to zero/);
    // A posting into another book's account.
    await expect(
      t.db.transaction(async (tx) => {
        const [e] = await tx.query<{ id: string }>(
          "INSERT INTO ledger_entries (book, kind, idempotency_key, request_hash, actor) VALUES ('demo', 'xx', 'raw-crossbook', 'h', 'test') RETURNING id",
        );
        await tx.query(
          "INSERT INTO ledger_postings (entry_id, account_id, book, asset, amount) VALUES ($1, $2, 'demo', 'USDT', -5), ($1, $3, 'demo', 'USDT', 5)",
          [e?.id, wallet, live],
        );
      }),
    ).rejects.toThrow();
    // Journal rows can be neither changed nor removed.
    await expect(t.db.query("UPDATE ledger_entries SET kind = 'edited'")).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM ledger_postings')).rejects.toThrow(/append-only/);
    await expect(t.db.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });
});

describe(`typed attachments and the bounded queue on ${TEST_DB}`, () => {
  it("writes an entry kind's attachment in the entry's transaction, typed both ways; a failing writer writes nothing", async () => {
    // A ledger of its own: an entry kind's attachment is registered once per ledger.
    const own = new LedgerService(t.db, audit);
    const swaps = own.attachment<{ note: string; fail: boolean }, { kind: string; note: string }>(
      'swap',
      async (tx, rows) => {
        if (rows.some((r) => r.data.fail)) throw new Error('the writer refuses');
        // The entry is visible to the writer: same transaction, before the commit.
        const found = await tx.query<{ id: string; kind: string }>(
          'SELECT id, kind FROM ledger_entries WHERE id = ANY($1::bigint[])',
          [rows.map((r) => r.entryId)],
        );
        return new Map(
          found.map((e) => [
            Number(e.id),
            { kind: e.kind, note: rows.find((r) => r.entryId === Number(e.id))?.data.note ?? '' },
          ]),
        );
      },
    );
    expect(() => own.attachment('swap', async () => new Map())).toThrow(/twice/);
    const a = await newCustomer();
    const wallet = await ledger.walletAccount('demo', a, 'USDT');
    const fees = await ledger.systemAccount('demo', 'USDT', 'fees');
    const swap = (key: string, data: { note: string; fail: boolean }) =>
      own.transfer({
        book: 'demo',
        kind: 'swap',
        idempotencyKey: key,
        actor: 'test',
        postings: [
          { accountId: wallet, amount: -USDT(2) },
          { accountId: fees, amount: USDT(2) },
        ],
        attach: swaps.with(data),
      });
    const first = await swap(`swap-${a}-1`, { note: 'first', fail: false });
    const attached: { kind: string; note: string } | undefined = first.attached;
    expect(attached).toEqual({ kind: 'swap', note: 'first' });
    // A replay answers the entry without writing again; other data under the key is a conflict.
    const again = await swap(`swap-${a}-1`, { note: 'first', fail: false });
    expect(again).toMatchObject({ entryId: first.entryId, replayed: true });
    expect(again.attached).toBeUndefined();
    await expect(swap(`swap-${a}-1`, { note: 'other', fail: false })).rejects.toSatisfy(
      rejectsWith('idempotency_conflict'),
    );
    // The writer fails: the entry is not written either.
    await expect(swap(`swap-${a}-2`, { note: 'fails', fail: true })).rejects.toThrow(/refuses/);
    expect((await ledger.entriesOf('demo', a, { kind: 'swap', limit: 10 })).map((l) => l.entryId)).toEqual([
      first.entryId,
    ]);
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR - USDT(2),
    );
    // An attachment goes with entries of its own kind, through the ledger it was registered with.
    await expect(
      own.transfer({
        book: 'demo',
        kind: 'fee',
        idempotencyKey: `swap-${a}-3`,
        actor: 'test',
        postings: [
          { accountId: wallet, amount: -1n },
          { accountId: fees, amount: 1n },
        ],
        attach: swaps.with({ note: 'wrong kind', fail: false }),
      }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
    await expect(
      ledger.transfer({
        book: 'demo',
        kind: 'swap',
        idempotencyKey: `swap-${a}-4`,
        actor: 'test',
        postings: [
          { accountId: wallet, amount: -1n },
          { accountId: fees, amount: 1n },
        ],
        attach: swaps.with({ note: 'other ledger', fail: false }),
      }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
  });

  it('writes a hold attachment after a hold, its post or its void, in their transaction; a failing writer refuses only its operation', async () => {
    const own = new LedgerService(t.db, audit);
    type Seen = { status: string; entryId: number | null; note: string };
    const notes = own.holdAttachment<{ note: string; fail: boolean }, Seen>(
      'test_notes',
      async (tx, rows) => {
        if (rows.some((r) => r.data.fail)) throw new Error('the writer refuses');
        // The hold's change is visible to the writer: same transaction, before the commit.
        const found = await tx.query<{ id: string; status: string }>(
          'SELECT id, status FROM ledger_holds WHERE id = ANY($1::bigint[])',
          [rows.map((r) => r.holdId)],
        );
        const status = new Map(found.map((h) => [Number(h.id), h.status]));
        return new Map(
          rows.map((r) => [
            r.holdId,
            { status: status.get(r.holdId) ?? '', entryId: r.entryId, note: r.data.note },
          ]),
        );
      },
    );
    expect(() => own.holdAttachment('test_notes', async () => new Map())).toThrow(/twice/);
    const a = await newCustomer();
    const wallet = await own.walletAccount('demo', a, 'USDT');
    const fees = await own.systemAccount('demo', 'USDT', 'fees');
    const hold = (n: number, note = 'held', fail = false) =>
      own.hold({
        book: 'demo',
        accountId: wallet,
        amount: USDT(n),
        idempotencyKey: `noted-hold-${a}-${n}`,
        actor: 'test',
        attach: notes.with({ note, fail }),
      });
    const post = (holdId: number, note: string, fail = false) =>
      own.postHold({
        holdId,
        toAccountId: fees,
        amount: USDT(1),
        kind: 'fee',
        idempotencyKey: `noted-post-${holdId}`,
        actor: 'test',
        attach: notes.with({ note, fail }),
      });
    const voided = (holdId: number, note: string, fail = false) =>
      own.voidHold({
        holdId,
        idempotencyKey: `noted-void-${holdId}`,
        actor: 'test',
        attach: notes.with({ note, fail }),
      });
    const h1 = await hold(3);
    const seen: Seen | undefined = h1.attached;
    expect(seen).toEqual({ status: 'pending', entryId: null, note: 'held' });
    // A replay answers the hold without writing again; other data under the key is a conflict.
    expect(await hold(3)).toEqual({ holdId: h1.holdId, replayed: true });
    await expect(hold(3, 'other')).rejects.toSatisfy(rejectsWith('idempotency_conflict'));
    await expect(hold(4, 'never', true)).rejects.toThrow(/refuses/);
    const [h2, h3, h4] = [await hold(5), await hold(6), await hold(7)];
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')?.held).toBe(
      USDT(3 + 5 + 6 + 7),
    );
    // Sent at once: the first runs alone, the rest share a batch; the failing writer refuses only
    // its own operation (the batch is retried one by one), nothing of it written.
    const fallbacks = own.stats.fallbacks;
    const [posted, failedPost, voidedOne, failedVoid] = await Promise.allSettled([
      post(h1.holdId, 'posted'),
      post(h2?.holdId ?? 0, 'fails', true),
      voided(h3?.holdId ?? 0, 'voided'),
      voided(h4?.holdId ?? 0, 'fails', true),
    ]);
    expect(own.stats.fallbacks).toBe(fallbacks + 1);
    expect(posted.status === 'fulfilled' && posted.value.attached).toEqual({
      status: 'posted',
      entryId: posted.status === 'fulfilled' ? posted.value.entryId : -1,
      note: 'posted',
    });
    expect(voidedOne.status === 'fulfilled' && voidedOne.value.attached).toEqual({
      status: 'voided',
      entryId: null,
      note: 'voided',
    });
    expect(failedPost.status === 'rejected' && String(failedPost.reason)).toMatch(/refuses/);
    expect(failedVoid.status === 'rejected' && String(failedVoid.reason)).toMatch(/refuses/);
    const statuses = await t.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM ledger_holds WHERE id = ANY($1::bigint[]) ORDER BY id',
      [[h1.holdId, h2?.holdId, h3?.holdId, h4?.holdId]],
    );
    expect(statuses.map((h) => h.status)).toEqual(['posted', 'pending', 'voided', 'pending']);
    const [entries] = await t.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM ledger_entries WHERE idempotency_key = $1',
      [`noted-post-${h2?.holdId}`],
    );
    expect(Number(entries?.n)).toBe(0);
    expect((await ledger.balances('demo', a)).find((x) => x.asset === 'USDT')).toMatchObject({
      balance: DEMO_FUNDING_MINOR - USDT(1),
      held: USDT(5 + 7),
    });
    // Retried with a writer that accepts: they go through.
    expect((await voided(h2?.holdId ?? 0, 'now')).attached?.status).toBe('voided');
    expect((await voided(h4?.holdId ?? 0, 'now')).replayed).toBe(false);
    // A replayed void answers without the writer; an attachment goes through the ledger it was registered with.
    expect(await voided(h4?.holdId ?? 0, 'now')).toEqual({ holdId: h4?.holdId, replayed: true });
    await expect(
      ledger.hold({
        book: 'demo',
        accountId: wallet,
        amount: 1n,
        idempotencyKey: `noted-elsewhere-${a}`,
        actor: 'test',
        attach: notes.with({ note: 'other ledger', fail: false }),
      }),
    ).rejects.toSatisfy(rejectsWith('invalid_request'));
  });

  it('refuses at once with 10031 when its queue is full, and serves what it queued', async () => {
    const bounded = new LedgerService(t.db, audit, undefined, { maxQueued: 3 });
    const a = await newCustomer();
    const wallet = await bounded.walletAccount('demo', a, 'USDT');
    const fees = await bounded.systemAccount('demo', 'USDT', 'fees');
    const fee = (n: number) =>
      bounded.transfer({
        book: 'demo',
        kind: 'fee',
        idempotencyKey: `bounded-${a}-${n}`,
        actor: 'test',
        postings: [
          { accountId: wallet, amount: -USDT(1) },
          { accountId: fees, amount: USDT(1) },
        ],
      });
    // The first goes straight into a batch; three wait for the next; the fifth finds the queue full.
    const sent = [1, 2, 3, 4, 5].map((n) =>
      fee(n).then(
        (r) => r,
        (e: unknown) => e,
      ),
    );
    const answers = await Promise.all(sent);
    const refused = answers.filter((x) => x instanceof LedgerError);
    expect(refused).toHaveLength(1);
    expect(answers[4]).toBe(refused[0]);
    expect(refused[0]).toMatchObject({ reason: 'unavailable', apiCode: Code.SERVICE_UNAVAILABLE });
    expect(answers.slice(0, 4).every((x) => !(x instanceof Error) && x !== null)).toBe(true);
    expect((await bounded.balances('demo', a)).find((x) => x.asset === 'USDT')?.balance).toBe(
      DEMO_FUNDING_MINOR - USDT(4),
    );
    expect(bounded.stats.refusedFull).toBe(1);
    // Once the queue has drained, the refused request goes through.
    expect((await fee(5)).replayed).toBe(false);
  });
});

describe(`audit chain on ${TEST_DB}`, () => {
  it('records every movement and detects any edit of the chain', async () => {
    const before = await audit.verify();
    expect(before.ok).toBe(true);
    const a = await newCustomer();
    const after = await audit.verify();
    expect(after.rows).toBe(before.rows + 1); // the demo funding
    // The demo funding is one operation of a ledger batch's row: its subject is the entry, and a
    // rewritten copy of it (the real table refuses edits) no longer matches the digest the row keeps.
    const { operationDigest } = await import('../audit/audit.service.ts');
    const rows = await t.db.query<{
      op_actors: string[];
      op_actions: string[];
      op_subjects: string[];
      op_data: string[];
      op_digests: string[];
    }>(
      'SELECT op_actors, op_actions, op_subjects, op_data, op_digests FROM audit_log ORDER BY seq DESC LIMIT 1',
    );
    const last = rows[0];
    expect(last?.op_subjects.at(-1)).toMatch(/^ledger_entry:/);
    const stored = {
      actor: last?.op_actors.at(-1) ?? '',
      action: last?.op_actions.at(-1) ?? '',
      subject: last?.op_subjects.at(-1) ?? '',
      data: last?.op_data.at(-1) ?? '',
    };
    expect(operationDigest(stored)).toBe(last?.op_digests.at(-1));
    const forged = { ...stored, data: stored.data.replace('100000000000', '900000000000') };
    expect(forged.data).not.toBe(stored.data);
    expect(operationDigest(forged)).not.toBe(last?.op_digests.at(-1));
    expect(a).toBeGreaterThan(0);
  });

  it('writes one row per ledger batch, and audit:verify names the one operation changed inside it', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const from = await ledger.walletAccount('demo', a, 'USDT');
    const to = await ledger.walletAccount('demo', b, 'USDT');
    // Sent at once: the first goes alone, the other five queue behind it and commit as one batch.
    const entries = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        ledger.transfer({
          book: 'demo',
          kind: 'transfer',
          idempotencyKey: `batch-audit-${a}-${n}`,
          actor: `user:${a}`,
          postings: [
            { accountId: from, amount: -USDT(n) },
            { accountId: to, amount: USDT(n) },
          ],
        }),
      ),
    );
    const [row] = await t.db.query<{ seq: string; op_subjects: string[]; op_data: string[] }>(
      'SELECT seq, op_subjects, op_data FROM audit_log WHERE $1 = ANY(op_subjects)',
      [`ledger_entry:${entries[3]?.entryId}`],
    );
    expect(row?.op_subjects.length).toBeGreaterThanOrEqual(3);
    // Each operation is found on its own, by actor and by subject, with its own number.
    const bySubject = await audit.search({ subject: `ledger_entry:${entries[3]?.entryId}`, limit: 10 });
    expect(bySubject).toHaveLength(1);
    expect(bySubject[0]).toMatchObject({ actor: `user:${a}`, action: 'ledger.transfer' });
    const byActor = await audit.search({ actor: `user:${a}`, limit: 10 });
    expect(byActor.map((r) => r.subject)).toEqual(entries.map((e) => `ledger_entry:${e.entryId}`).reverse());
    expect(new Set(byActor.map((r) => r.seq)).size).toBe(6);

    // Change the amount of the second operation of that row behind the log's back (its
    // append-only trigger off for the moment), as someone with the database's keys could.
    const index = 2; // 1-based, in SQL
    const original = row?.op_data[index - 1] ?? '';
    const edited = original.replace(/"amount":"-?\d+"/, '"amount":"-999000000"');
    expect(edited).not.toBe(original);
    const setData = async (text: string) => {
      await t.db.exec('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only');
      try {
        await t.db.query('UPDATE audit_log SET op_data[$2] = $3 WHERE seq = $1', [row?.seq, index, text]);
      } finally {
        await t.db.exec('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only');
      }
    };
    await setData(edited);
    try {
      const verdict = await audit.verify();
      const operation = Number(row?.seq) + index - 1;
      expect(verdict).toMatchObject({ ok: false, brokenAt: operation, kind: 'content_hash' });
      // What `npm run audit:verify` prints for it.
      expect(auditVerdictText(verdict)).toBe(
        `Audit chain BROKEN at row ${operation}: operation ${operation} (${index} of ${row?.op_subjects.length} in the ledger batch row ${row?.seq}) does not match its digest`,
      );
    } finally {
      await setData(original);
    }
    expect((await audit.verify()).ok).toBe(true);
  });

  it('raises staff alerts into the chain', async () => {
    const id = await audit.alertStaff('reconciliation', 'difference found', { account: 1 });
    expect((await audit.openAlerts()).map((x) => x.id)).toContain(id);
  });
});

describe(`ledger against a reference model on ${TEST_DB}`, () => {
  it('agrees with an in-memory model over random sequences of operations', async () => {
    const users = [await newCustomer(), await newCustomer(), await newCustomer()];
    const wallets = await Promise.all(users.map((u) => ledger.walletAccount('demo', u, 'USDT')));
    const house = await ledger.systemAccount('demo', 'USDT', 'house_pnl');
    let run = 0;
    const op = fc.oneof(
      fc.record({
        type: fc.constant('transfer' as const),
        from: fc.nat(2),
        to: fc.nat(3),
        amount: fc.bigInt(1n, DEMO_FUNDING_MINOR / 2n),
      }),
      fc.record({
        type: fc.constant('hold' as const),
        who: fc.nat(2),
        amount: fc.bigInt(1n, DEMO_FUNDING_MINOR / 2n),
      }),
      fc.record({ type: fc.constant('void' as const), pick: fc.nat(20) }),
      fc.record({
        type: fc.constant('post' as const),
        pick: fc.nat(20),
        part: fc.integer({ min: 1, max: 100 }),
      }),
      fc.record({ type: fc.constant('replay' as const), pick: fc.nat(20) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        // The model starts from the ledger's current state.
        const model = new Map<number, { balance: bigint; held: bigint }>();
        for (const [i, u] of users.entries()) {
          const b = (await ledger.balances('demo', u)).find((x) => x.asset === 'USDT');
          model.set(wallets[i] ?? 0, { balance: b?.balance ?? 0n, held: b?.held ?? 0n });
        }
        const holds: { id: number; account: number; amount: bigint; open: boolean }[] = [];
        const done: Parameters<LedgerService['transfer']>[0][] = [];
        let n = 0;
        for (const o of ops) {
          n += 1;
          const key = `model-${run}-${n}`;
          if (o.type === 'transfer') {
            const from = wallets[o.from] ?? 0;
            const to = o.to === 3 ? house : (wallets[o.to] ?? 0);
            if (from === to) continue;
            const request = {
              book: 'demo' as const,
              kind: 'transfer' as const,
              idempotencyKey: key,
              actor: 'model',
              postings: [
                { accountId: from, amount: -o.amount },
                { accountId: to, amount: o.amount },
              ],
            };
            const m = model.get(from);
            const ok = m !== undefined && m.balance - m.held - o.amount >= 0n;
            const outcome = await ledger.transfer(request).then(
              () => true,
              (e: unknown) =>
                e instanceof LedgerError && e.reason === 'insufficient_funds' ? false : Promise.reject(e),
            );
            expect(outcome).toBe(ok);
            if (ok && m) {
              m.balance -= o.amount;
              const target = model.get(to);
              if (target) target.balance += o.amount;
              done.push(request);
            }
          } else if (o.type === 'hold') {
            const account = wallets[o.who] ?? 0;
            const m = model.get(account);
            const ok = m !== undefined && m.balance - m.held - o.amount >= 0n;
            const outcome = await ledger
              .hold({
                book: 'demo',
                accountId: account,
                amount: o.amount,
                idempotencyKey: key,
                actor: 'model',
              })
              .then(
                (r) => r.holdId,
                (e: unknown) =>
                  e instanceof LedgerError && e.reason === 'insufficient_funds' ? null : Promise.reject(e),
              );
            expect(outcome !== null).toBe(ok);
            if (outcome !== null && m) {
              m.held += o.amount;
              holds.push({ id: outcome, account, amount: o.amount, open: true });
            }
          } else if (o.type === 'void' || o.type === 'post') {
            const hold = holds[o.pick % Math.max(1, holds.length)];
            if (!hold) continue;
            const m = model.get(hold.account);
            if (o.type === 'void') {
              const outcome = await ledger
                .voidHold({ holdId: hold.id, idempotencyKey: key, actor: 'model' })
                .then(
                  () => true,
                  (e: unknown) =>
                    e instanceof LedgerError && e.reason === 'hold_not_pending' ? false : Promise.reject(e),
                );
              expect(outcome).toBe(hold.open);
              if (outcome && m) m.held -= hold.amount;
            } else {
              const amount = (hold.amount * BigInt(o.part)) / 100n || 1n;
              const outcome = await ledger
                .postHold({
                  holdId: hold.id,
                  toAccountId: house,
                  amount,
                  kind: 'trade_pnl',
                  idempotencyKey: key,
                  actor: 'model',
                })
                .then(
                  () => true,
                  (e: unknown) =>
                    e instanceof LedgerError && e.reason === 'hold_not_pending' ? false : Promise.reject(e),
                );
              expect(outcome).toBe(hold.open);
              if (outcome && m) {
                m.held -= hold.amount;
                m.balance -= amount;
              }
            }
            hold.open = false;
          } else {
            const again = done[o.pick % Math.max(1, done.length)];
            if (again) expect((await ledger.transfer(again)).replayed).toBe(true);
          }
        }
        for (const [i, u] of users.entries()) {
          const b = (await ledger.balances('demo', u)).find((x) => x.asset === 'USDT');
          const m = model.get(wallets[i] ?? 0);
          expect({ balance: b?.balance, held: b?.held }).toEqual({ balance: m?.balance, held: m?.held });
        }
        // Release what is still held so the next run starts with free funds.
        for (const h of holds.filter((x) => x.open))
          await ledger.voidHold({ holdId: h.id, idempotencyKey: `release-${h.id}`, actor: 'model' });
      }),
      { numRuns: 40 },
    );
  });
});
