import { ASSET_SCALES, loanLimitSettings, loanProductsData, parseMinor } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { pngImage } from '../../../../../tests/support/images.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { loanProductBody, testLoans } from '../../test/loans.ts';
import { addDays } from './loans.figures.ts';

/**
 * Issue 41: the limit grows by bounded steps under a rule staff set with four eyes (item 10); every
 * loans timestamp is the service clock's (item 20); staff's review of a repayment proof states
 * what the loan owes now, its earlier principal repayments counted.
 */
const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
/** An amount of USDT in minor units. */
const u = (usdt: string) => parseMinor(usdt, ASSET_SCALES.USDT);

let t: TestDatabase;
let ctx: TestContext;
let l: Awaited<ReturnType<typeof testLoans>>;
// Years after the system clock: a timestamp of the database's or of Date.now() is far from it.
const clock = { now: Date.parse('2031-05-01T10:00:00Z') };
const D0 = '2031-05-01';
const at = (day: number, hour = 12, minute = 0) => {
  clock.now = Date.parse(
    `${addDays(D0, day)}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`,
  );
};
const iso = () => new Date(clock.now).toISOString();

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now: () => clock.now });
  l = await testLoans(ctx, { platformAddress: '0x2222222222222222222222222222222222222222' });
}, 120_000);
afterAll(() => t.close());

async function productAndPool(name: string) {
  const admin = await ctx.staffMember('admin');
  const product = (await l.loans.createProduct(`staff:${admin.id}`, loanProductBody({ name }))).product;
  await l.loans.fundPool(
    `staff:${admin.id}`,
    { asset: 'USDT', amount: '50000', reason: name },
    `fund-${name}`,
  );
  return { product, admin };
}

/** A loan applied for, approved by staff and booked, on the clock as it stands. */
async function borrow(userId: number, productId: number, amount: string, key: string) {
  const finance = await ctx.staffMember('finance');
  const q = await l.loans.quote('live', userId, { productId, amount, termDays: 30 });
  const loan = await l.loans.apply('live', userId, {
    quoteId: q.quoteId,
    requestId: key,
    signature: await l.signature(userId),
    acceptAgreement: true,
  });
  await l.applications.claim({ staffId: finance.id }, loan.id);
  await l.applications.approve({ staffId: finance.id }, loan.id);
  await l.loans.bookReceivables();
  return loan;
}

/** A repayment by transfer declared with a proof (`seed` makes the image and the hash its own). */
async function repayByTransfer(userId: number, loanId: number, amount: string, seed: number) {
  const payoff = await l.loans.payoff('live', userId, loanId);
  const proof = await l.loans.repayWithProof('live', userId, {
    loanId,
    amount,
    proof: (await l.uploads.store(userId, 'loan_repayment_proof', async () => pngImage(200, 200, seed))).id,
    txHash: String(seed).repeat(64),
    address: payoff.repayAddresses[0]?.address ?? '',
  });
  return { proof, payoff };
}

describe(`the loan limit, the clock and the proof review on ${TEST_DB}`, () => {
  it('a loan repaid in five days raises nothing; a loan that ran the rule’s days adds one bounded step; staff change the rule with four eyes (issue 41 item 10)', async () => {
    const { loans } = l;
    at(0, 9);
    const { product } = await productAndPool('Limit');
    const c = await ctx.customer({ name: 'loan-limit' });
    await l.verify(c.id);
    await deposit(ctx.ledger, c.id, u('500'));
    const limitOf = async () => loanProductsData.parse(await loans.products(c.id));
    const first = await limitOf();
    expect(first.limit.share).toBe('0.5');
    expect(first.products.find((p) => p.id === product.id)?.myLimit).toBe('5000.000000');

    // One loan, repaid five days after its payout: the limit stays where it was (it was 100 %).
    const quick = await borrow(c.id, product.id, '1000', 'limit-quick');
    at(5);
    await loans.repay('live', c.id, { loanId: quick.id, requestId: 'limit-quick-repay', full: true });
    const afterQuick = await limitOf();
    expect(afterQuick.limit.share).toBe('0.5');
    expect(afterQuick.products.find((p) => p.id === product.id)?.myLimit).toBe('5000.000000');
    // The rule that applies, and the next step, as the customer reads them.
    expect(afterQuick.limit).toMatchObject({
      rule: { baseShare: '0.5', stepShare: '0.1', maxShare: '1', minLoanDays: 30 },
      counted: 0,
      overdue: 0,
      next: { share: '0.6', loans: 1 },
    });

    // A loan that ran its 30 days, repaid on its due date: one step of 10 %, not the whole maximum.
    at(10);
    const full = await borrow(c.id, product.id, '1000', 'limit-full');
    at(40);
    await loans.repay('live', c.id, { loanId: full.id, requestId: 'limit-full-repay', full: true });
    const afterFull = await limitOf();
    expect(afterFull.limit).toMatchObject({ share: '0.6', counted: 1, next: { share: '0.7', loans: 1 } });
    expect(afterFull.products.find((p) => p.id === product.id)?.myLimit).toBe('6000.000000');

    // Staff change the rule: a step above a quarter is refused; one admin proposes, another approves.
    const ann = await ctx.staffMember('admin');
    const ben = await ctx.staffMember('admin');
    const refs = (ids: number[]) => ctx.staff.refsOf(ids);
    /** A rule: base, step and highest share, the days a loan must run. */
    const propose = (staffId: number, [baseShare, stepShare, maxShare]: string[], minLoanDays: number) =>
      loans.proposeLimitRule(
        staffId,
        { baseShare: baseShare ?? '', stepShare: stepShare ?? '', maxShare: maxShare ?? '', minLoanDays },
        refs,
      );
    // The platform's first rule (the system parameter `loans.limitRule` the migration seeds) applies.
    expect(loanLimitSettings.parse(await loans.limitSettings(refs)).current).toMatchObject({
      id: 0,
      rule: { baseShare: '0.5', stepShare: '0.1', maxShare: '1', minLoanDays: 30 },
      proposedBy: null,
      decidedBy: null,
    });
    await expect(propose(ann.id, ['0.5', '0.5', '1'], 30)).rejects.toSatisfy(refusedWith(10026));
    await expect(propose(ann.id, ['0.8', '0.1', '0.7'], 30)).rejects.toSatisfy(refusedWith(10026));
    at(41, 9);
    const proposed = await propose(ann.id, ['0.3', '0.25', '0.9'], 5);
    expect(proposed).toMatchObject({ state: 'pending', proposedBy: { id: ann.id }, proposedAt: iso() });
    // Not applied yet; the proposer may not approve; a second change waits behind it.
    expect((await limitOf()).limit.share).toBe('0.6');
    await expect(loans.decideLimitRule(ann.id, proposed.id, 'approved', refs)).rejects.toSatisfy(
      refusedWith(10049),
    );
    await expect(propose(ben.id, ['0.5', '0.1', '1'], 0)).rejects.toSatisfy(refusedWith(10048));
    at(41, 10);
    const approved = await loans.decideLimitRule(ben.id, proposed.id, 'approved', refs);
    expect(approved).toMatchObject({ state: 'approved', decidedBy: { id: ben.id }, decidedAt: iso() });
    // Both loans ran at least 5 days: 30 % + 2 × 25 % = 80 %, the next step the highest, 90 %.
    expect((await limitOf()).limit).toMatchObject({
      share: '0.8',
      rule: { baseShare: '0.3', stepShare: '0.25', maxShare: '0.9', minLoanDays: 5 },
      counted: 2,
      next: { share: '0.9', loans: 1 },
    });
    const settings = loanLimitSettings.parse(await loans.limitSettings(refs));
    expect(settings.current.id).toBe(proposed.id);
    expect(settings.pending).toBeNull();
    expect(settings.recent.map((r) => [r.id, r.state])).toEqual([[proposed.id, 'approved']]);
    const audited = await ctx.audit.search({ actionPrefix: 'loan.limit_rule', limit: 10 });
    expect(audited.map((a) => [a.action, a.subject]).sort()).toEqual([
      ['loan.limit_rule.approved', 'loans.limitRule'],
      ['loan.limit_rule.proposed', 'loans.limitRule'],
    ]);
    const [stored] = await ctx.db.query<{ value: string }>(
      `SELECT value FROM system_params WHERE key = 'loans.limitRule'`,
    );
    expect(JSON.parse(stored?.value ?? '')).toEqual({
      baseShare: '0.3',
      stepShare: '0.25',
      maxShare: '0.9',
      minLoanDays: 5,
    });
    // Turned down: the rule stays.
    const other = await propose(ben.id, ['1', '0', '1'], 0);
    await loans.decideLimitRule(ann.id, other.id, 'rejected', refs);
    expect((await limitOf()).limit.share).toBe('0.8');
  });

  it('every loans timestamp is the service clock’s: applied, closed, repaid, decided (issue 41 item 20)', async () => {
    const { loans, proofs } = l;
    at(100, 8, 15);
    const { product, admin } = await productAndPool('Clock');
    const c = await ctx.customer({ name: 'loan-clock' });
    await l.verify(c.id);
    await deposit(ctx.ledger, c.id, u('500'));
    const q = await loans.quote('live', c.id, { productId: product.id, amount: '400', termDays: 30 });
    const rejected = await loans.apply('live', c.id, {
      quoteId: q.quoteId,
      requestId: 'clock-rejected',
      signature: await l.signature(c.id),
      acceptAgreement: true,
    });
    expect(rejected.appliedAt).toBe(iso());
    at(100, 9, 30);
    await l.applications.claim({ staffId: admin.id }, rejected.id);
    await l.applications.reject({ staffId: admin.id }, rejected.id, 'not now');
    expect((await loans.detail('live', c.id, rejected.id)).closedAt).toBe(iso());

    at(101, 8);
    const loan = await borrow(c.id, product.id, '400', 'clock-loan');
    at(103, 14, 45);
    await loans.repay('live', c.id, { loanId: loan.id, requestId: 'clock-part', full: false, amount: '100' });
    const partAt = iso();
    // A repayment by transfer, declared at 15:20 and decided at 16:05.
    at(103, 15, 20);
    const { proof } = await repayByTransfer(c.id, loan.id, '10', 3);
    expect(proof.createdAt).toBe(iso());
    at(103, 16, 5);
    await proofs.claim({ staffId: admin.id }, proof.id);
    await proofs.reject({ staffId: admin.id }, proof.id, 'no such transfer');
    const decided = await ctx.db.query<{ decided_at: string }>(
      `SELECT to_char(decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS decided_at
       FROM loan_repayments WHERE id = $1`,
      [proof.id],
    );
    expect(decided[0]?.decided_at).toBe(iso());

    at(105, 11, 10);
    await loans.repay('live', c.id, { loanId: loan.id, requestId: 'clock-full', full: true });
    const closed = await loans.detail('live', c.id, loan.id);
    expect(closed.state).toBe('repaid');
    expect(closed.closedAt).toBe(iso());
    expect(closed.repayments.filter((r) => r.method === 'balance').map((r) => r.createdAt)).toEqual([
      partAt,
      iso(),
    ]);
    const stamps = await ctx.db.query<{ created: string; updated: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated
       FROM loans WHERE id = $1`,
      [loan.id],
    );
    expect(stamps[0]).toEqual({
      created: new Date(Date.parse(`${addDays(D0, 101)}T08:00:00Z`)).toISOString(),
      updated: iso(),
    });
  });

  it('staff’s review of a repayment proof states what the loan owes now, earlier principal repayments counted', async () => {
    const { loans, proofs } = l;
    at(200, 9);
    const { product, admin } = await productAndPool('Owed');
    const c = await ctx.customer({ name: 'loan-owed' });
    await l.verify(c.id);
    await deposit(ctx.ledger, c.id, u('1000'));
    const loan = await borrow(c.id, product.id, '1000', 'owed-loan');
    // Day 10: 1.5 of interest owed (days 8 to 10 at 0.5), the rest of 600 lowers the principal.
    at(210);
    await loans.repay('live', c.id, { loanId: loan.id, requestId: 'owed-part', full: false, amount: '600' });
    at(220);
    const { proof, payoff } = await repayByTransfer(c.id, loan.id, '50', 4);
    const item = await proofs.get({ staffId: admin.id }, proof.id);
    expect(item.outstanding).toEqual({
      principal: payoff.principal,
      interest: payoff.interest,
      lateCost: payoff.lateCost,
      total: payoff.total,
    });
    // 401.5 principal owed; ten days of interest on it since (0.200750 a day).
    expect(payoff).toMatchObject({ principal: '401.500000', interest: '2.007500' });
  });
});
