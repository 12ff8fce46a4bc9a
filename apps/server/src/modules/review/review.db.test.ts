import { ASSET_SCALES, Code, parseMinor, reviewCalls } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { ApiError } from '../../platform/http.ts';
import { KeyRing } from '../../platform/keys.ts';
import { createMemoryRateLimiter } from '../../platform/ratelimit.ts';
import { AuditService } from '../audit/audit.service.ts';
import { CustomerDirectory } from '../identity/identity.customers.ts';
import { LedgerService } from '../ledger/ledger.service.ts';
import { NoticesService } from '../notices/notices.service.ts';
import { ParamsService } from '../params/params.service.ts';
import { StaffService } from '../staff/staff.service.ts';
import { defineReview, type ReviewNotice, thresholdFromParams } from './review.define.ts';
import { type ReviewQueue, ReviewService } from './review.service.ts';

const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const usdt = (text: string) => parseMinor(text, ASSET_SCALES.USDT);

/**
 * A review kind declared here, as a product would: a payout a customer asks for, its money held
 * on their wallet (a real hold on the real ledger); approving posts the hold to the platform's
 * pending withdrawals, rejecting voids it. Four eyes above 1,000 USDT (a system parameter).
 */
const payout = z.object({
  id: z.int(),
  userId: z.int(),
  amount: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
});
const payoutCalls = reviewCalls({
  path: '/test-payouts',
  noun: 'payout',
  listItem: payout,
  item: payout,
  readers: ['finance', 'admin'],
  deciders: ['finance'],
});

describe(`staff review queue on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ledger: LedgerService;
  let notices: NoticesService;
  let staff: StaffService;
  let reviews: ReviewService;
  let queue: ReviewQueue<typeof payoutCalls>;
  let clock = Date.UTC(2026, 2, 2, 9, 0, 0);
  /** Set to make the product's record fail once: a throw inside the decision's transaction, after the hold's change. */
  let failRecordOnce = false;
  const staffIds: Record<'ann' | 'ben' | 'cat', number> = { ann: 0, ben: 0, cat: 0 };
  const ann = () => ({ staffId: staffIds.ann });
  const ben = () => ({ staffId: staffIds.ben });
  const cat = () => ({ staffId: staffIds.cat });

  beforeAll(async () => {
    t = await openTestDatabase();
    const audit = new AuditService(t.db);
    ledger = new LedgerService(t.db, audit);
    await ledger.ensureSystemAccounts();
    notices = new NoticesService(t.db);
    const customers = new CustomerDirectory(t.db);
    staff = new StaffService({
      db: t.db,
      audit,
      rateLimiter: createMemoryRateLimiter(),
      keys: new KeyRing(Buffer.alloc(32, 9)),
    });
    for (const name of ['ann', 'ben', 'cat'] as const)
      staffIds[name] = (await staff.create({ email: `${name}@swx.test`, role: 'finance' }, null)).staff.id;
    const params = new ParamsService(t.db);
    await t.db.query(
      "INSERT INTO system_params (key, value, is_public, description) VALUES ('fourEyesAbove.payout.USDT', '1000', false, 'test')",
    );
    // The product's own table, as a module's migration would make it.
    await t.db.exec(`CREATE TABLE test_payouts (
      id bigserial PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id), hold_id bigint NOT NULL,
      amount numeric(78,0) NOT NULL, status text NOT NULL DEFAULT 'pending', entry_id bigint)`);
    type Row = { id: string; user_id: string; hold_id: string; amount: string; status: string };
    const toItem = (r: Row) => ({
      id: Number(r.id),
      userId: Number(r.user_id),
      holdId: Number(r.hold_id),
      amount: r.amount,
      status: r.status as 'pending' | 'approved' | 'rejected',
    });
    reviews = new ReviewService({ db: t.db, audit, notices, staff, customers, ledger, now: () => clock });
    queue = reviews.register(
      defineReview({
        kind: 'payout',
        calls: payoutCalls,
        decidedCode: Code.WRONG_COLLECTION_STATUS,
        list: async ({ after, limit }) =>
          (
            await t.db.query<Row>(
              "SELECT * FROM test_payouts WHERE status = 'pending' AND id > $1 ORDER BY id LIMIT $2",
              [after ?? 0, limit],
            )
          ).map(toItem),
        get: async (id) => {
          const [row] = await t.db.query<Row>('SELECT * FROM test_payouts WHERE id = $1', [id]);
          return row ? toItem(row) : null;
        },
        facts: (item) => ({ userId: item.userId, state: item.status }),
        fourEyes: {
          amountOf: (item) => ({ asset: 'USDT', minor: BigInt(item.amount) }),
          above: thresholdFromParams(params, 'fourEyesAbove.payout'),
        },
        // One hold operation carrying the decision (attach): both are written, or neither.
        ledger: async ({ item, decision, idempotencyKey, actor }, attach) => {
          const [row] = await t.db.query<Row>('SELECT * FROM test_payouts WHERE id = $1', [item.id]);
          const holdId = Number(row?.hold_id);
          if (decision === 'rejected') return ledger.voidHold({ holdId, idempotencyKey, actor, attach });
          return ledger.postHold({
            holdId,
            toAccountId: await ledger.systemAccount('demo', 'USDT', 'pending_withdrawals'),
            amount: BigInt(item.amount),
            kind: 'withdrawal',
            idempotencyKey,
            actor,
            attach,
          });
        },
        record: async (tx, { itemId, decision, ledger: effect }) => {
          if (failRecordOnce) {
            failRecordOnce = false;
            throw new Error('the node stopped');
          }
          await tx.query('UPDATE test_payouts SET status = $2, entry_id = $3 WHERE id = $1', [
            itemId,
            decision,
            effect?.entryId ?? null,
          ]);
        },
        notice: ({ decision, reason }): ReviewNotice =>
          decision === 'approved'
            ? { kind: 'kyc_verified', params: {} }
            : { kind: 'kyc_failed', params: { reason: reason ?? '' } },
      }),
    );
  });
  afterAll(() => t.close());

  let users = 0;
  /** A customer with the demo book's 100,000 USDT and a payout of `amount` held on their wallet. */
  async function payoutOf(amount: string): Promise<{ id: number; userId: number; holdId: number }> {
    users += 1;
    const [user] = await t.db.query<{ id: string }>(
      "INSERT INTO users (user_name, password_hash, language) VALUES ($1, '$argon2id$x', 'de') RETURNING id",
      [`payee${users}`],
    );
    const userId = Number(user?.id);
    await ledger.openCustomerBooks(userId);
    const { holdId } = await ledger.hold({
      book: 'demo',
      accountId: await ledger.walletAccount('demo', userId, 'USDT'),
      amount: usdt(amount),
      idempotencyKey: `test-payout:${userId}`,
      actor: `user:${userId}`,
    });
    const [row] = await t.db.query<{ id: string }>(
      'INSERT INTO test_payouts (user_id, hold_id, amount) VALUES ($1, $2, $3) RETURNING id',
      [userId, holdId, usdt(amount).toString()],
    );
    return { id: Number(row?.id), userId, holdId };
  }

  const auditOf = (id: number) =>
    t.db.query<{ actor: string; action: string }>(
      'SELECT actor, action FROM audit_log WHERE subject = $1 ORDER BY seq',
      [`payout:${id}`],
    );
  const wallet = async (userId: number) =>
    (await ledger.balances('demo', userId)).find((b) => b.asset === 'USDT');

  it('staff claiming the same items at once: exactly one wins each, the others are told who holds it', async () => {
    const items = [await payoutOf('51'), await payoutOf('52'), await payoutOf('53'), await payoutOf('54')];
    const races = await Promise.all(
      items.map(({ id }) =>
        Promise.allSettled([queue.claim(cat(), id), queue.claim(ben(), id), queue.claim(ann(), id)]),
      ),
    );
    for (const outcomes of races) {
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(
        outcomes.filter((o) => o.status === 'rejected' && refusedWith(Code.REVIEW_CLAIMED)(o.reason)),
      ).toHaveLength(2);
    }
    const { id } = await payoutOf('50');
    const outcomes = await Promise.allSettled([
      queue.claim(ann(), id),
      queue.claim(ben(), id),
      queue.claim(cat(), id),
    ]);
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(2);
    const winner = won[0]?.status === 'fulfilled' ? won[0].value.review.claim?.staff : undefined;
    expect(winner?.email).toMatch(/^(ann|ben|cat)@swx\.test$/);
    for (const refusal of lost) {
      expect(refusedWith(Code.REVIEW_CLAIMED)(refusal)).toBe(true);
      expect((refusal as ApiError).data).toMatchObject({
        claimedBy: { id: winner?.id, email: winner?.email },
      });
    }
    // One claim row, held by the winner; one audit row of the claim.
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['payout.claimed']);
    // The queue names the claimant.
    const listed = (await queue.list(ann(), null)).find((p) => p.id === id);
    expect(listed?.review).toMatchObject({ state: 'pending', claim: { staff: winner }, fourEyes: false });
  });

  it('the claimant renews the lease; when it ends another may claim', async () => {
    const { id } = await payoutOf('60');
    const first = await queue.claim(ann(), id);
    clock += 10 * 60_000;
    const renewed = await queue.claim(ann(), id);
    expect(Date.parse(renewed.review.claim?.until ?? '') - Date.parse(first.review.claim?.until ?? '')).toBe(
      10 * 60_000,
    );
    await expect(queue.claim(ben(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_CLAIMED));
    clock += 15 * 60_000;
    // Ann's lease has ended: she may no longer decide, and Ben may claim.
    await expect(queue.approve(ann(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_CLAIM_REQUIRED));
    expect((await queue.get(ann(), id)).review.claim).toBeNull();
    expect((await queue.claim(ben(), id)).review.claim?.staff.email).toBe('ben@swx.test');
    // A release ends it; releasing what you do not hold is refused.
    await expect(queue.release(ann(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_CLAIMED));
    expect((await queue.release(ben(), id)).review.claim).toBeNull();
  });

  it('refuses a decision without a live claim of the decider', async () => {
    const { id, userId } = await payoutOf('70');
    await expect(queue.approve(ann(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_CLAIM_REQUIRED));
    await expect(queue.reject(ann(), id, 'no claim')).rejects.toSatisfy(
      refusedWith(Code.REVIEW_CLAIM_REQUIRED),
    );
    await queue.claim(ben(), id);
    await expect(queue.approve(ann(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_CLAIMED));
    await expect(queue.approve(cat(), 987_654)).rejects.toSatisfy(refusedWith(Code.NOT_FOUND));
    // Nothing moved, nobody was told.
    expect((await wallet(userId))?.held).toBe(usdt('70'));
    expect(await notices.list(userId, 'en')).toEqual([]);
    // The claimant rejects: the hold is voided, the customer reads the reason in their language.
    const rejected = await queue.reject(ben(), id, 'The address is on a sanctions list');
    expect(rejected).toMatchObject({
      status: 'rejected',
      review: { state: 'rejected', claim: null, decidedBy: { email: 'ben@swx.test' } },
    });
    expect((await wallet(userId))?.held).toBe(0n);
    expect((await notices.list(userId, 'de'))[0]?.noticeContent).toContain(
      'Grund: The address is on a sanctions list',
    );
    // Decided once.
    await expect(queue.claim(ann(), id)).rejects.toSatisfy(refusedWith(Code.WRONG_COLLECTION_STATUS));
    await expect(queue.approve(ben(), id)).rejects.toSatisfy(refusedWith(Code.WRONG_COLLECTION_STATUS));
    await expect(
      t.db.query("UPDATE review_items SET reason = 'edited' WHERE kind = 'payout' AND item_id = $1", [id]),
    ).rejects.toThrow(/cannot change/);
  });

  it('four eyes: above the threshold one approver is not enough, and the second must be another account', async () => {
    const { id, userId } = await payoutOf('1000.000001');
    await queue.claim(ann(), id);
    const first = await queue.approve(ann(), id);
    // Recorded as the first approval; nothing moved, the claim is free for a second approver.
    expect(first).toMatchObject({
      status: 'pending',
      review: {
        state: 'pending',
        fourEyes: true,
        claim: null,
        approvals: [{ staff: { email: 'ann@swx.test' } }],
      },
    });
    expect((await wallet(userId))?.held).toBe(usdt('1000.000001'));
    // The same account again: refused, even with a claim.
    await queue.claim(ann(), id);
    await expect(queue.approve(ann(), id)).rejects.toSatisfy(refusedWith(Code.REVIEW_SECOND_APPROVER));
    await queue.release(ann(), id);
    expect(await notices.list(userId, 'en')).toEqual([]);
    // Another account completes it: the hold is posted, once.
    await queue.claim(ben(), id);
    const approved = await queue.approve(ben(), id);
    expect(approved).toMatchObject({
      status: 'approved',
      review: {
        state: 'approved',
        fourEyes: true,
        approvals: [{ staff: { email: 'ann@swx.test' } }, { staff: { email: 'ben@swx.test' } }],
        decidedBy: { email: 'ben@swx.test' },
      },
    });
    expect(await wallet(userId)).toMatchObject({ balance: usdt('98999.999999'), held: 0n });
    expect(await auditOf(id)).toEqual([
      { actor: `staff:${staffIds.ann}`, action: 'payout.claimed' },
      { actor: `staff:${staffIds.ann}`, action: 'payout.first_approval' },
      { actor: `staff:${staffIds.ann}`, action: 'payout.claimed' },
      { actor: `staff:${staffIds.ann}`, action: 'payout.released' },
      { actor: `staff:${staffIds.ben}`, action: 'payout.claimed' },
      { actor: `staff:${staffIds.ben}`, action: 'payout.approved' },
    ]);
    expect(await notices.list(userId, 'en')).toHaveLength(1);
    // At the threshold itself one approver is enough.
    const small = await payoutOf('1000');
    await queue.claim(cat(), small.id);
    expect((await queue.approve(cat(), small.id)).review).toMatchObject({
      state: 'approved',
      fourEyes: false,
    });
    // The database refuses a first approver completing the approval whatever the code does.
    const other = await payoutOf('5000');
    await queue.claim(ann(), other.id);
    await queue.approve(ann(), other.id);
    await expect(
      t.db.query(
        `UPDATE review_items SET decision = 'approved', decided_by = first_approver, decided_at = now(),
           claimed_by = NULL, claim_until = NULL WHERE kind = 'payout' AND item_id = $1`,
        [other.id],
      ),
    ).rejects.toThrow(/check/i);
  });

  it('tells the threshold of the asset, and plainly that none is set: then one approval suffices', async () => {
    const { id } = await payoutOf('2500');
    const listed = (await queue.list(ann(), null)).find((item) => item.id === id);
    expect(listed?.review).toMatchObject({ fourEyes: true, threshold: { asset: 'USDT', amount: '1000' } });
    await t.db.query("DELETE FROM system_params WHERE key = 'fourEyesAbove.payout.USDT'");
    try {
      // No threshold: not "below the threshold", but none set; one approver decides any amount.
      expect((await queue.get(ann(), id)).review).toMatchObject({
        fourEyes: false,
        threshold: { asset: 'USDT', amount: null },
      });
      await queue.claim(ann(), id);
      const approved = await queue.approve(ann(), id);
      expect(approved).toMatchObject({ status: 'approved', review: { state: 'approved', fourEyes: false } });
      // A decided item no longer states a threshold.
      expect(approved.review.threshold).toBeNull();
    } finally {
      await t.db.query(
        "INSERT INTO system_params (key, value, description) VALUES ('fourEyesAbove.payout.USDT', '1000', 'test')",
      );
    }
  });

  it('a decision whose ledger effect is refused leaves no audit row, no notice and an undecided item', async () => {
    const { id, userId, holdId } = await payoutOf('80');
    await queue.claim(ann(), id);
    // The hold is released elsewhere before staff decide (a real hold on the real ledger).
    await ledger.voidHold({ holdId, idempotencyKey: `test-cancel:${id}`, actor: `user:${userId}` });
    await expect(queue.approve(ann(), id)).rejects.toSatisfy(refusedWith(Code.WRONG_COLLECTION_STATUS));
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['payout.claimed']);
    expect(await notices.list(userId, 'en')).toEqual([]);
    const after = await queue.get(ann(), id);
    expect(after).toMatchObject({
      status: 'pending',
      review: { state: 'pending', decidedBy: null, claim: { staff: { email: 'ann@swx.test' } } },
    });
    const [entries] = await t.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM ledger_entries WHERE idempotency_key = $1',
      [`review:payout:${id}:approved`],
    );
    expect(Number(entries?.n)).toBe(0);
    expect(await wallet(userId)).toMatchObject({ balance: usdt('100000'), held: 0n });
  });

  it('a throw inside the decision, after the hold was changed, writes nothing; sent again it is written once', async () => {
    const { id, userId, holdId } = await payoutOf('90');
    await queue.claim(ben(), id);
    const holdOf = async () =>
      (await t.db.query<{ status: string }>('SELECT status FROM ledger_holds WHERE id = $1', [holdId]))[0]
        ?.status;
    const rowsOf = async (table: 'audit_log' | 'ledger_entries' | 'notices') =>
      Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n);
    const before = {
      audit: await rowsOf('audit_log'),
      entries: await rowsOf('ledger_entries'),
      notices: await rowsOf('notices'),
    };
    // Approving (a post) and rejecting (a void): the product's record throws in the ledger's
    // transaction, after the hold's change and the decision on the review row were written in it.
    for (const decide of [() => queue.approve(ben(), id), () => queue.reject(ben(), id, 'Wrong network')]) {
      failRecordOnce = true;
      await expect(decide()).rejects.toThrow('the node stopped');
      expect(await holdOf()).toBe('pending');
      expect(await wallet(userId)).toMatchObject({ balance: usdt('100000'), held: usdt('90') });
      expect({
        audit: await rowsOf('audit_log'),
        entries: await rowsOf('ledger_entries'),
        notices: await rowsOf('notices'),
      }).toEqual(before);
      const [review] = await t.db.query<{ decision: string | null; claimed_by: string | null }>(
        "SELECT decision, claimed_by FROM review_items WHERE kind = 'payout' AND item_id = $1",
        [id],
      );
      expect(review).toEqual({ decision: null, claimed_by: String(staffIds.ben) });
      expect((await t.db.query('SELECT status FROM test_payouts WHERE id = $1', [id]))[0]).toEqual({
        status: 'pending',
      });
    }
    expect(await notices.list(userId, 'en')).toEqual([]);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['payout.claimed']);
    // Sent again, twice at once: written once, everything together. The other answers the same
    // decision (the ledger replays its key) or, arriving after it, that the item is decided.
    const answers = await Promise.allSettled([queue.approve(ben(), id), queue.approve(ben(), id)]);
    expect(answers.some((a) => a.status === 'fulfilled')).toBe(true);
    for (const answer of answers)
      if (answer.status === 'fulfilled')
        expect(answer.value).toMatchObject({
          status: 'approved',
          review: { state: 'approved', claim: null, decidedBy: { email: 'ben@swx.test' } },
        });
      else expect(refusedWith(Code.WRONG_COLLECTION_STATUS)(answer.reason)).toBe(true);
    expect(await holdOf()).toBe('posted');
    expect(await wallet(userId)).toMatchObject({ balance: usdt('99910'), held: 0n });
    const [entries] = await t.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM ledger_entries WHERE idempotency_key = $1',
      [`review:payout:${id}:approved`],
    );
    expect(Number(entries?.n)).toBe(1);
    const [decided] = await t.db.query<{ status: string; entry_id: string | null }>(
      'SELECT status, entry_id FROM test_payouts WHERE id = $1',
      [id],
    );
    expect(decided?.status).toBe('approved');
    expect(decided?.entry_id).not.toBeNull();
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['payout.claimed', 'payout.approved']);
    expect(await notices.list(userId, 'en')).toHaveLength(1);
  });
});
