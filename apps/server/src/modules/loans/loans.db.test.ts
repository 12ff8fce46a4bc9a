import { loanApplyBody, loanDetail, loanPayoff, loanProductsData, loanQuote } from '@swx/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { ApiError } from '../../platform/http.ts';
import { createTestContext, deposit, type TestContext } from '../../test/context.ts';
import { loanProductBody, testLoans } from '../../test/loans.ts';
import { reconcileSubLedger } from '../products/reconciliation.ts';
import { addDays } from './loans.figures.ts';
import { chargesOf } from './loans.repository.ts';
import { INCOME, LOAN, POOL, UNEARNED } from './loans.service.ts';

/**
 * Loans against the real ledger, KYC and review queue on an injected clock: three loans paid out
 * the same day and serviced day by day across the interest-free boundary and the due date, one
 * repaid early, one in part then at the due date, one late (in part, then in full); every posting
 * exact to the minor unit; pool, receivables and interest income reconciling; KYC first,
 * signature required, nothing of another customer's.
 */
const refusedWith = (code: number) => (e: unknown) => e instanceof ApiError && e.code === code;
const u = (usdt: string) => {
  const [whole = '0', frac = ''] = usdt.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
};

let t: TestDatabase;
let ctx: TestContext;
let l: Awaited<ReturnType<typeof testLoans>>;
const clock = { now: Date.parse('2027-03-01T10:00:00Z') };
const D0 = '2027-03-01';
/** The platform's own address on its chain (the hot wallet's), as app.ts passes it. */
const PLATFORM_ADDRESS = '0x2222222222222222222222222222222222222222';

const at = (day: number, hour = 12) => {
  clock.now = Date.parse(`${addDays(D0, day)}T${String(hour).padStart(2, '0')}:00:00Z`);
};

beforeAll(async () => {
  t = await openTestDatabase();
  ctx = await createTestContext(t.db, { now: () => clock.now });
  l = await testLoans(ctx, { platformAddress: PLATFORM_ADDRESS });
}, 120_000);
afterAll(() => t.close());
afterEach(() =>
  expectLedgerSound({
    ...ctx,
    subLedgers: [() => reconcileSubLedger(l.loans.subLedger('USDT'), ctx.ledger, ctx.audit)],
  }),
);

describe(`loans on ${TEST_DB}`, () => {
  it('services three loans across the interest-free days and the due date: early, on time and late, every posting exact', async () => {
    const { loans, applications, runner } = l;
    at(0, 10);
    const finance = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${finance.id}`, loanProductBody())).product;
    // Staff fund the pool from the house: a ledger transfer, audited with the actor and reason.
    await loans.fundPool(
      `staff:${finance.id}`,
      { asset: 'USDT', amount: '100000', reason: 'initial pool' },
      'test-pool-fund-1',
    );
    // (a ledger operation: one of its batch's audit row, found by the audit search)
    const funded = await ctx.audit.search({
      actor: `staff:${finance.id}`,
      actionPrefix: 'ledger.loan',
      limit: 10,
    });
    expect(funded.filter((r) => r.action === 'ledger.loan')).toHaveLength(1);

    const account = async (kind: 'pool' | 'income' | 'unearned' | 'receivable') => {
      const id =
        kind === 'pool'
          ? await loans.poolAccount('USDT')
          : kind === 'income'
            ? await loans.incomeAccount('USDT')
            : kind === 'unearned'
              ? await loans.unearnedAccount('USDT')
              : await ctx.ledger.systemAccount('live', 'USDT', 'loans_receivable');
      return (await ctx.ledger.account(id))?.balance ?? 0n;
    };
    const wallet = async (userId: number) =>
      (await ctx.ledger.balances('live', userId)).find((b) => b.asset === 'USDT')?.balance ?? 0n;
    const owes = async (userId: number) =>
      (await ctx.ledger.account(await ctx.ledger.accountId('live', userId, 'USDT', LOAN)))?.balance ?? 0n;

    const people = await Promise.all(
      ['early', 'ontime', 'late'].map((name) => ctx.customer({ name: `loan-${name}` })),
    );
    const [early, ontime, late] = people.map((p) => p.id) as [number, number, number];
    for (const id of [early, ontime, late]) {
      await deposit(ctx.ledger, id, u('2000'));
      await l.verify(id);
    }
    // The limit: identity verified gives 80 points, half of the product's maximum.
    // Every answer is the contract's shape (the routes parse them so).
    const offer = loanProductsData.parse(await loans.products(early));
    expect(offer.limit).toMatchObject({ kycState: 'verified', score: 80, share: '0.5', openLoanId: null });
    expect(offer.products[0]).toMatchObject({ id: product.id, myLimit: '5000.000000', available: true });
    expect(offer.limit.steps.map((s) => [s.key, s.done])).toEqual([
      ['kycVerified', true],
      ['loanRepaidOnTime', false],
      ['noLoanOverdue', false],
    ]);
    await expect(
      loans.quote('live', early, { productId: product.id, amount: '5000.01', termDays: 30 }),
    ).rejects.toSatisfy(refusedWith(10013));
    await expect(
      loans.quote('live', early, { productId: product.id, amount: '1000', termDays: 45 }),
    ).rejects.toSatisfy(refusedWith(10023));
    await expect(
      loans.quote('demo', early, { productId: product.id, amount: '1000', termDays: 30 }),
    ).rejects.toSatisfy(refusedWith(10043));

    // The sheet: 1,000 USDT for 30 days at 0.05 % a day after 7 free days: 23 × 0.5 = 11.5 interest.
    const ids: number[] = [];
    for (const userId of [early, ontime, late]) {
      const q = loanQuote.parse(
        await loans.quote('live', userId, { productId: product.id, amount: '1000', termDays: 30 }),
      );
      expect(q).toMatchObject({
        amount: '1000.000000',
        termDays: 30,
        dailyRate: '0.0005',
        interestFreeDays: 7,
        interestDays: 23,
        totalInterest: '11.500000',
        totalPayable: '1011.500000',
        repaymentAmount: '1011.500000',
        interestFrom: '2027-03-09',
        dueDate: '2027-03-31',
        apr: '14.9',
        lateCostCap: '50.000000',
        earlyRepaymentFee: '0.000000',
        withdrawalDays: 14,
      });
      expect(q.agreement.join('\n')).toContain('11.500000 USDT');
      expect(q.agreement.join('\n')).toContain('14.9 %');
      const record = await loans.apply('live', userId, {
        quoteId: q.quoteId,
        requestId: `apply-${userId}`,
        signature: await l.signature(userId),
        acceptAgreement: true,
      });
      expect(record).toMatchObject({ state: 'pending', amount: '1000.000000', hasAgreement: true });
      ids.push(record.id);
    }
    const [earlyLoan, ontimeLoan, lateLoan] = ids as [number, number, number];
    // The agreement's SHA-256 is in the audit log, and matches the PDF its owner downloads.
    const pdf = await loans.agreementForOwner(early, earlyLoan);
    expect(
      Buffer.from(pdf ?? [])
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const signed = await ctx.db.query<{ data: string }>(
      "SELECT data FROM audit_log WHERE action = 'loan.agreement.signed' AND subject = $1",
      [`loan:${earlyLoan}`],
    );
    const { createHash } = await import('node:crypto');
    expect(JSON.parse(signed[0]?.data ?? '{}').sha256).toBe(
      createHash('sha256')
        .update(pdf ?? new Uint8Array())
        .digest('hex'),
    );
    // The pool reserved the three amounts while they wait.
    expect((await loans.pool('USDT')).available).toBe('97000.000000');

    for (const id of ids) {
      await applications.claim({ staffId: finance.id }, id);
      await applications.approve({ staffId: finance.id }, id);
    }
    await loans.bookReceivables();
    for (const id of [early, ontime, late]) {
      expect(await wallet(id)).toBe(u('3000'));
      expect(await owes(id)).toBe(u('1000'));
    }
    expect(await account('pool')).toBe(u('97000'));
    // Booked: the most the three agreements can charge (interest + late cap) waits on the unearned account.
    expect(await account('unearned')).toBe(3n * u('61.5'));
    expect(await account('receivable')).toBe(-3n * u('1061.5'));

    const serviceDay = async (day: number) => {
      at(day, 0);
      clock.now += 10 * 60_000;
      expect(await loans.runDaily(runner)).toEqual([]);
    };

    // Early: repaid in full on day 5, inside the interest-free days: exactly the amount.
    for (let day = 1; day <= 5; day++) await serviceDay(day);
    at(5);
    expect(await loans.payoff('live', early, earlyLoan)).toMatchObject({
      principal: '1000.000000',
      interest: '0.000000',
      total: '1000.000000',
      interestSaved: '11.500000',
      withdrawable: true,
    });
    await loans.repay('live', early, { loanId: earlyLoan, requestId: 'early-full', full: true });
    expect(await wallet(early)).toBe(u('2000'));
    expect(await owes(early)).toBe(0n);
    expect((await loans.detail('live', early, earlyLoan)).state).toBe('repaid');
    expect(await account('unearned')).toBe(2n * u('61.5'));

    // The interest-free boundary: day 7 charges nothing, day 8 charges 0.5. On day 9 the
    // settlement has posted day 8, and the list shows day 9's charge too, as today's payoff counts it.
    for (let day = 6; day <= 8; day++) await serviceDay(day);
    await serviceDay(9);
    expect((await loans.detail('live', ontime, ontimeLoan)).accruals).toEqual([
      { day: '2027-03-09', interest: '0.500000', lateCost: '0.000000' },
      { day: '2027-03-10', interest: '0.500000', lateCost: '0.000000' },
    ]);
    expect(await owes(ontime)).toBe(u('1000.5'));

    // On time: 300 on day 15 (interest through day 15 first: 8 days × 0.5 = 4, then principal 296).
    for (let day = 10; day <= 15; day++) await serviceDay(day);
    at(15);
    const before = {
      wallet: await wallet(ontime),
      pool: await account('pool'),
      income: await account('income'),
    };
    const unearnedBefore = await account('unearned');
    await loans.repay('live', ontime, {
      loanId: ontimeLoan,
      requestId: 'ontime-part',
      full: false,
      amount: '300',
    });
    expect(await wallet(ontime)).toBe(before.wallet - u('300'));
    expect(await account('pool')).toBe(before.pool + u('296'));
    expect(await account('income')).toBe(before.income + u('4'));
    // Day 15's charge (on the principal owed when it started) was posted first, from the unearned account.
    expect(await account('unearned')).toBe(unearnedBefore - u('0.5'));
    expect(await owes(ontime)).toBe(u('704'));
    const partDetail = loanDetail.parse(await loans.detail('live', ontime, ontimeLoan));
    loanPayoff.parse(await loans.payoff('live', ontime, ontimeLoan));
    expect(partDetail.repayments[0]).toMatchObject({
      amount: '300.000000',
      lateCost: '0.000000',
      interest: '4.000000',
      principal: '296.000000',
    });

    // Reminders 3 days and 1 day before the due date (2027-03-31), once each.
    for (let day = 16; day <= 30; day++) await serviceDay(day);
    // Each reminder once per loan; within a day the loans are served in any order (on PostgreSQL,
    // at once), so they are compared by kind, then customer.
    const reminders = await ctx.db.query<{ user_id: string; kind: string }>(
      "SELECT user_id, kind FROM notices WHERE kind LIKE 'loan_due%' ORDER BY kind = 'loan_due_tomorrow', user_id",
    );
    const [first, second] = [ontime, late].sort((a, b) => a - b);
    expect(reminders.map((r) => [Number(r.user_id), r.kind])).toEqual([
      [first, 'loan_due_in_three_days'],
      [second, 'loan_due_in_three_days'],
      [first, 'loan_due_tomorrow'],
      [second, 'loan_due_tomorrow'],
    ]);
    // And mailed, in the customer's language, with the notice's text.
    const ontimeEmail = (
      await ctx.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [ontime])
    )[0]?.email;
    const reminderMails = l.mailed.filter((m) => m.to === ontimeEmail);
    expect(reminderMails.map((m) => m.subject)).toEqual([
      'Your SWX loan is due soon',
      'Your SWX loan is due soon',
    ]);
    expect(reminderMails[0]?.text).toContain('due in 3 days, on 2027-03-31');
    // At the due date: 704 + 15 days × 0.352 = 709.28.
    at(30);
    expect(await loans.payoff('live', ontime, ontimeLoan)).toMatchObject({
      total: '709.280000',
      interest: '5.280000',
    });
    await loans.repay('live', ontime, { loanId: ontimeLoan, requestId: 'ontime-full', full: true });
    expect(await wallet(ontime)).toBe(u('3000') - u('300') - u('709.28'));
    expect(await owes(ontime)).toBe(0n);
    const ontimeDone = await loans.detail('live', ontime, ontimeLoan);
    expect(ontimeDone).toMatchObject({
      state: 'repaid',
      paid: { interest: '9.280000', principal: '1000.000000' },
    });

    // Late: overdue from day 31, 1 USDT of late cost a day (0.1 % of 1,000), no interest.
    for (let day = 31; day <= 33; day++) await serviceDay(day);
    expect((await loans.detail('live', late, lateLoan)).state).toBe('expired');
    const overdue = await ctx.db.query<{ kind: string }>(
      "SELECT kind FROM notices WHERE user_id = $1 AND kind = 'loan_overdue'",
      [late],
    );
    expect(overdue).toHaveLength(1);
    expect(await loans.overdue()).toMatchObject([{ userId: late, daysOverdue: 3 }]);
    at(33);
    // 2.5 goes to late cost first (3 owed through day 33).
    await loans.repay('live', late, { loanId: lateLoan, requestId: 'late-part', full: false, amount: '2.5' });
    const latePart = await loans.detail('live', late, lateLoan);
    expect(latePart.repayments[0]).toMatchObject({
      lateCost: '2.500000',
      interest: '0.000000',
      principal: '0.000000',
    });
    for (let day = 34; day <= 35; day++) await serviceDay(day);
    at(35);
    // Late cost through day 35: 5, of which 2.5 paid; interest 11.5; principal 1,000.
    expect(await loans.payoff('live', late, lateLoan)).toMatchObject({
      principal: '1000.000000',
      interest: '11.500000',
      lateCost: '2.500000',
      total: '1014.000000',
    });
    await loans.repay('live', late, { loanId: lateLoan, requestId: 'late-full', full: true });
    expect(await wallet(late)).toBe(u('3000') - u('2.5') - u('1014'));
    // Settling the days already charged by the repayments pays nothing twice.
    await serviceDay(36);
    await serviceDay(37);

    // Everything repaid: the pool has its funding back, income holds the interest and late cost,
    // nothing is left to accrue or owed.
    expect(await account('pool')).toBe(u('100000'));
    expect(await account('income')).toBe(u('9.28') + u('11.5') + u('5'));
    expect(await account('unearned')).toBe(0n);
    expect(await account('receivable')).toBe(0n);
    for (const id of [early, ontime, late]) expect(await owes(id)).toBe(0n);
    const byKind = await ctx.db.query<{ kind: string }>(
      'SELECT DISTINCT kind FROM ledger_accounts WHERE kind IN ($1, $2, $3, $4)',
      [POOL, INCOME, UNEARNED, LOAN],
    );
    expect(byKind).toHaveLength(4);
    // The credit score: repaid on time gives +10, and +10 more without any overdue loan.
    expect((await loans.limit(ontime)).score).toBe(100);
    expect((await loans.limit(late)).score).toBe(80);
  });

  it('KYC first (10022), signed and accepted, and nothing of another customer’s', async () => {
    const { loans } = l;
    at(40, 9);
    const finance = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${finance.id}`, loanProductBody({ name: 'Second' })))
      .product;
    const stranger = await ctx.customer({ name: 'loan-unverified' });
    await expect(
      loans.quote('live', stranger.id, { productId: product.id, amount: '500', termDays: 30 }),
    ).rejects.toSatisfy(refusedWith(10022));
    expect((await loans.products(stranger.id)).limit).toMatchObject({ kycState: 'none', share: '0' });

    const owner = await ctx.customer({ name: 'loan-owner' });
    const other = await ctx.customer({ name: 'loan-other' });
    for (const c of [owner, other]) await l.verify(c.id);
    const q = await loans.quote('live', owner.id, { productId: product.id, amount: '500', termDays: 30 });
    // Unsigned or not accepted: the contract refuses the body before the server sees it.
    expect(
      loanApplyBody.safeParse({ quoteId: q.quoteId, requestId: 'no-signature', acceptAgreement: true })
        .success,
    ).toBe(false);
    expect(
      loanApplyBody.safeParse({
        quoteId: q.quoteId,
        requestId: 'not-accepted',
        signature: 'a'.repeat(24),
        acceptAgreement: false,
      }).success,
    ).toBe(false);
    // A signature that is not a drawn signature upload: 10026; another customer's upload: 10028.
    const kycPhoto = await l.uploads.store(owner.id, 'kyc_front', async () =>
      (await import('../../../../../tests/support/images.ts')).pngImage(),
    );
    await expect(
      loans.apply('live', owner.id, {
        quoteId: q.quoteId,
        requestId: 'wrong-purpose',
        signature: kycPhoto.id,
        acceptAgreement: true,
      }),
    ).rejects.toSatisfy(refusedWith(10026));
    await expect(
      loans.apply('live', owner.id, {
        quoteId: q.quoteId,
        requestId: 'others-signature',
        signature: await l.signature(other.id),
        acceptAgreement: true,
      }),
    ).rejects.toSatisfy(refusedWith(10028));
    // Another customer's quote: 10028.
    await expect(
      loans.apply('live', other.id, {
        quoteId: q.quoteId,
        requestId: 'others-quote',
        signature: await l.signature(other.id),
        acceptAgreement: true,
      }),
    ).rejects.toSatisfy(refusedWith(10028));
    const loan = await loans.apply('live', owner.id, {
      quoteId: q.quoteId,
      requestId: 'signed',
      signature: await l.signature(owner.id),
      acceptAgreement: true,
    });
    // The same request again answers the same application.
    expect(
      (
        await loans.apply('live', owner.id, {
          quoteId: q.quoteId,
          requestId: 'signed',
          signature: await l.signature(owner.id),
          acceptAgreement: true,
        })
      ).id,
    ).toBe(loan.id);
    // A second loan while one is in progress: 10024.
    await expect(
      loans.quote('live', owner.id, { productId: product.id, amount: '500', termDays: 30 }),
    ).rejects.toSatisfy(refusedWith(10024));
    // Another customer: the loan, its agreement and a proof against it are nothing.
    await expect(loans.detail('live', other.id, loan.id)).rejects.toSatisfy(refusedWith(10028));
    expect(await loans.agreementForOwner(other.id, loan.id)).toBeNull();
    await expect(loans.payoff('live', other.id, loan.id)).rejects.toSatisfy(refusedWith(10028));
    await expect(
      loans.repay('live', other.id, { loanId: loan.id, requestId: 'others-repay', full: true }),
    ).rejects.toSatisfy(refusedWith(10028));

    // Rejected: the pool's reservation is released, nothing paid out.
    const before = (await loans.pool('USDT')).available;
    await l.applications.claim({ staffId: finance.id }, loan.id);
    await l.applications.reject({ staffId: finance.id }, loan.id, 'income not shown');
    expect(await loans.detail('live', owner.id, loan.id)).toMatchObject({
      state: 'rejected',
      reason: 'income not shown',
    });
    expect(BigInt((await loans.pool('USDT')).available.replace('.', ''))).toBe(
      BigInt(before.replace('.', '')) + u('500'),
    );
  });

  it("names the platform's own chain address for a repayment by transfer, unless a parameter names another", async () => {
    const hot = PLATFORM_ADDRESS;
    await ctx.db.query("DELETE FROM system_params WHERE key LIKE 'loan.repaymentAddress.%'");
    expect(await l.loans.repayAddresses('USDT')).toEqual([
      { asset: 'USDT', network: 'USDT-EVM', address: hot },
    ]);
    expect(await l.loans.repayAddresses('ETH')).toEqual([{ asset: 'ETH', network: 'ETH-EVM', address: hot }]);
    // The platform's chain carries no USDC and no Bitcoin: no address rather than a wrong one.
    expect(await l.loans.repayAddresses('USDC')).toEqual([]);
    expect(await l.loans.repayAddresses('BTC')).toEqual([]);
    await ctx.db.query(
      "INSERT INTO system_params (key, value, is_public, description) VALUES ('loan.repaymentAddress.USDT', '0x3333333333333333333333333333333333333333', false, 'test')",
    );
    expect(await l.loans.repayAddresses('USDT')).toEqual([
      { asset: 'USDT', network: 'USDT-EVM', address: '0x3333333333333333333333333333333333333333' },
    ]);
  });

  it('repays by a transfer with a proof that staff approve or reject; another customer cannot use the loan', async () => {
    const { loans, proofs } = l;
    at(50, 9);
    await ctx.db.query(
      "INSERT INTO system_params (key, value, is_public, description) VALUES ('loan.repaymentAddress.USDT', '0x1111111111111111111111111111111111111111', false, 'test') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
    );
    const finance = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${finance.id}`, loanProductBody({ name: 'Third' })))
      .product;
    const owner = await ctx.customer({ name: 'loan-proof' });
    const other = await ctx.customer({ name: 'loan-proof-other' });
    await l.verify(owner.id);
    const q = await loans.quote('live', owner.id, { productId: product.id, amount: '200', termDays: 30 });
    const loan = await loans.apply('live', owner.id, {
      quoteId: q.quoteId,
      requestId: 'proof-loan',
      signature: await l.signature(owner.id),
      acceptAgreement: true,
    });
    await l.applications.claim({ staffId: finance.id }, loan.id);
    await l.applications.approve({ staffId: finance.id }, loan.id);
    await loans.bookReceivables();
    const payoff = await loans.payoff('live', owner.id, loan.id);
    expect(payoff.repayAddresses).toEqual([
      { asset: 'USDT', network: 'USDT-EVM', address: '0x1111111111111111111111111111111111111111' },
    ]);
    const proofUpload = async (userId: number) =>
      (
        await l.uploads.store(userId, 'loan_repayment_proof', async () =>
          (await import('../../../../../tests/support/images.ts')).pngImage(200, 200, 9),
        )
      ).id;
    const hash = (n: number) => n.toString(16).padStart(64, '0');
    await expect(
      loans.repayWithProof('live', owner.id, {
        loanId: loan.id,
        amount: '50',
        proof: await proofUpload(owner.id),
        txHash: hash(1),
        address: '0x2222222222222222222222222222222222222222',
      }),
    ).rejects.toSatisfy(refusedWith(10021));
    await expect(
      loans.repayWithProof('live', other.id, {
        loanId: loan.id,
        amount: '50',
        proof: await proofUpload(other.id),
        txHash: hash(2),
        address: payoff.repayAddresses[0]?.address ?? '',
      }),
    ).rejects.toSatisfy(refusedWith(10028));
    const approved = await loans.repayWithProof('live', owner.id, {
      loanId: loan.id,
      amount: '50',
      proof: await proofUpload(owner.id),
      txHash: hash(3),
      address: payoff.repayAddresses[0]?.address ?? '',
    });
    const rejected = await loans.repayWithProof('live', owner.id, {
      loanId: loan.id,
      amount: '70',
      proof: await proofUpload(owner.id),
      txHash: hash(4),
      address: payoff.repayAddresses[0]?.address ?? '',
    });
    expect(approved).toMatchObject({ state: 'pending', method: 'proof', amount: '50.000000' });
    await proofs.claim({ staffId: finance.id }, rejected.id);
    await proofs.reject({ staffId: finance.id }, rejected.id, 'no such transfer');
    await proofs.claim({ staffId: finance.id }, approved.id);
    await proofs.approve({ staffId: finance.id }, approved.id);
    expect(await loans.applyProofs()).toBe(1);
    const detail = loanDetail.parse(await loans.detail('live', owner.id, loan.id));
    expect(detail.repayments.every((r) => r.proof !== null)).toBe(true);
    expect(detail.repayments.map((r) => [r.state, r.amount, r.principal, r.reason])).toEqual([
      ['approved', '50.000000', '50.000000', null],
      ['rejected', '70.000000', null, 'no such transfer'],
    ]);
    expect(detail.outstanding.principal).toBe('150.000000');
    // The wallet got the transfer and paid it to the loan: unchanged.
    expect((await ctx.ledger.balances('live', owner.id)).find((b) => b.asset === 'USDT')?.balance).toBe(
      u('200'),
    );
  });
  it('four eyes above fourEyesAbove.loan.<asset>, and the 14-day withdrawal', async () => {
    const { loans, applications } = l;
    at(60, 9);
    await ctx.db.query(
      "INSERT INTO system_params (key, value, is_public, description) VALUES ('fourEyesAbove.loan.USDT', '300', false, 'test') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
    );
    const first = await ctx.staffMember('finance');
    const second = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${first.id}`, loanProductBody({ name: 'Fourth' })))
      .product;
    await loans.fundPool(
      `staff:${first.id}`,
      { asset: 'USDT', amount: '2000', reason: 'fourth' },
      'test-pool-fund-4',
    );
    const [big, small] = await Promise.all([
      ctx.customer({ name: 'loan-big' }),
      ctx.customer({ name: 'loan-small' }),
    ]);
    const ids: number[] = [];
    for (const [c, amount] of [
      [big, '500'],
      [small, '200'],
    ] as const) {
      await l.verify(c.id);
      const q = await loans.quote('live', c.id, { productId: product.id, amount, termDays: 30 });
      ids.push(
        (
          await loans.apply('live', c.id, {
            quoteId: q.quoteId,
            requestId: `four-${c.id}`,
            signature: await l.signature(c.id),
            acceptAgreement: true,
          })
        ).id,
      );
    }
    const [bigLoan, smallLoan] = ids as [number, number];
    await applications.claim({ staffId: first.id }, bigLoan);
    await applications.approve({ staffId: first.id }, bigLoan);
    // Above 300 USDT: the first approval pays nothing out; the same account cannot complete it.
    expect((await loans.detail('live', big.id, bigLoan)).state).toBe('pending');
    await applications.claim({ staffId: first.id }, bigLoan);
    await expect(applications.approve({ staffId: first.id }, bigLoan)).rejects.toSatisfy(refusedWith(10037));
    await applications.release({ staffId: first.id }, bigLoan);
    await applications.claim({ staffId: second.id }, bigLoan);
    await applications.approve({ staffId: second.id }, bigLoan);
    await applications.claim({ staffId: first.id }, smallLoan);
    await applications.approve({ staffId: first.id }, smallLoan);
    await loans.bookReceivables();
    expect((await loans.detail('live', big.id, bigLoan)).state).toBe('repaying');

    // Within 14 days: withdrawn by repaying the principal and the interest accrued (none yet).
    at(63);
    const withdrawn = await loans.withdraw('live', big.id, { loanId: bigLoan, requestId: 'withdraw-big' });
    expect(withdrawn).toMatchObject({
      state: 'withdrawn',
      paid: { principal: '500.000000', interest: '0.000000' },
    });
    expect((await ctx.ledger.balances('live', big.id)).find((b) => b.asset === 'USDT')?.balance).toBe(0n);
    // After 14 days: 10023; repaying stays open (8 interest days × 0.1 = 0.8 by day 75).
    at(75);
    await expect(
      loans.withdraw('live', small.id, { loanId: smallLoan, requestId: 'withdraw-small' }),
    ).rejects.toSatisfy(refusedWith(10023));
    await deposit(ctx.ledger, small.id, u('10'));
    // Two repayments of one loan at once: each applies to what is owed, or is refused (10032) when
    // the other changed it first; never both on the same figures.
    const racing = await Promise.allSettled(
      [1, 2].map((n) =>
        loans.repay('live', small.id, {
          loanId: smallLoan,
          requestId: `small-race-${n}`,
          full: false,
          amount: '50',
        }),
      ),
    );
    for (const r of racing)
      if (r.status === 'rejected') expect(refusedWith(10032)(r.reason), String(r.reason)).toBe(true);
    const done = racing.filter((r) => r.status === 'fulfilled').length;
    expect(done).toBeGreaterThan(0);
    expect((await loans.detail('live', small.id, smallLoan)).paid.total).toBe(
      done === 2 ? '100.000000' : '50.000000',
    );
    const repaid = await loans.repay('live', small.id, {
      loanId: smallLoan,
      requestId: 'small-full',
      full: true,
    });
    expect(repaid).toMatchObject({
      state: 'repaid',
      paid: { principal: '200.000000', interest: '0.800000' },
    });
  });

  it('a quote commits once, whatever the request id: 10 applications of it at once under 10 ids make one loan', async () => {
    const { loans } = l;
    at(90, 9);
    const finance = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${finance.id}`, loanProductBody({ name: 'Once' })))
      .product;
    // The pool could lend the quote's amount 20 times over: it is not what stops a second loan.
    await loans.fundPool(
      `staff:${finance.id}`,
      { asset: 'USDT', amount: '10000', reason: 'once' },
      'test-pool-fund-once',
    );
    const c = await ctx.customer({ name: 'loan-once' });
    await l.verify(c.id);
    const q = await loans.quote('live', c.id, { productId: product.id, amount: '500', termDays: 30 });
    const pool = u((await loans.pool('USDT')).available);
    // One drawn signature for all (a customer keeps 3 unused uploads per purpose): on the old code
    // every application reached the one-open-loan index (10024), never a quote's single use.
    const requestIds = Array.from({ length: 10 }, (_, i) => `once-${c.id}-${i}`);
    const drawn = await l.signature(c.id);
    const signatures = requestIds.map(() => drawn);
    const results = await Promise.allSettled(
      requestIds.map((requestId, i) =>
        loans.apply('live', c.id, {
          quoteId: q.quoteId,
          requestId,
          signature: signatures[i] as string,
          acceptAgreement: true,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const index = results.findIndex((r) => r.status === 'fulfilled');
    const won = results[index];
    if (won?.status !== 'fulfilled') throw new Error('no loan');
    const refused = results.flatMap((r) =>
      r.status === 'rejected'
        ? [r.reason instanceof ApiError ? { code: r.reason.code, data: r.reason.data } : String(r.reason)]
        : [],
    );
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r).toMatchObject({ code: 10032, data: { reason: 'used' } });
    expect(won.value).toMatchObject({ state: 'pending', amount: '500.000000' });
    const rows = await ctx.db.query<{ id: string }>('SELECT id FROM loans WHERE user_id = $1', [c.id]);
    expect(rows.map((r) => Number(r.id))).toEqual([won.value.id]);
    const holds = await ctx.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM ledger_holds WHERE idempotency_key LIKE $1',
      [`loan-apply:${c.id}:%`],
    );
    expect(holds[0]?.n).toBe('1');
    // The pool reserved the amount once; the customer's balance did not move.
    expect(u((await loans.pool('USDT')).available)).toBe(pool - u('500'));
    expect((await ctx.ledger.balances('live', c.id)).find((b) => b.asset === 'USDT')?.balance ?? 0n).toBe(0n);
    // The winning request again answers its loan; a losing one is still refused; nothing more reserved.
    const again = await loans.apply('live', c.id, {
      quoteId: q.quoteId,
      requestId: requestIds[index] as string,
      signature: signatures[index] as string,
      acceptAgreement: true,
    });
    expect(again.id).toBe(won.value.id);
    const loser = (index + 1) % 10;
    await expect(
      loans.apply('live', c.id, {
        quoteId: q.quoteId,
        requestId: requestIds[loser] as string,
        signature: signatures[loser] as string,
        acceptAgreement: true,
      }),
    ).rejects.toMatchObject({ code: 10032, data: { reason: 'used' } });
    expect(u((await loans.pool('USDT')).available)).toBe(pool - u('500'));
  });

  it('the day-by-day list, what is owed and today’s payoff agree at every moment of the day (issue 41)', async () => {
    const { loans, applications, runner } = l;
    at(100, 9);
    const finance = await ctx.staffMember('finance');
    const product = (await loans.createProduct(`staff:${finance.id}`, loanProductBody({ name: 'Agree' })))
      .product;
    await loans.fundPool(
      `staff:${finance.id}`,
      { asset: 'USDT', amount: '2000', reason: 'agree' },
      'test-pool-fund-agree',
    );
    const c = await ctx.customer({ name: 'loan-agree' });
    await l.verify(c.id);
    await deposit(ctx.ledger, c.id, u('50'));
    // 300: at most what one approval pays out (an earlier test sets four eyes above 300).
    const q = await loans.quote('live', c.id, { productId: product.id, amount: '300', termDays: 30 });
    const { id } = await loans.apply('live', c.id, {
      quoteId: q.quoteId,
      requestId: `agree-${c.id}`,
      signature: await l.signature(c.id),
      acceptAgreement: true,
    });
    await applications.claim({ staffId: finance.id }, id);
    await applications.approve({ staffId: finance.id }, id);
    await loans.bookReceivables();
    expect((await loans.detail('live', c.id, id)).state).toBe('repaying');
    const payoutDay = addDays(D0, 100);

    /** The list, what is owed and the payoff now: one sum of the days, less what was paid. */
    const agree = async (when: string) => {
      const detail = await loans.detail('live', c.id, id);
      const payoff = await loans.payoff('live', c.id, id);
      const listed = detail.accruals.reduce((sum, a) => sum + u(a.interest), 0n);
      const owed = u(payoff.interest);
      expect(listed - u(detail.paid.interest), when).toBe(owed);
      expect(u(detail.outstanding.interest), when).toBe(owed);
      expect(detail.outstanding.total, when).toBe(payoff.total);
      // Every day up to today listed, once the interest-free days are over; nothing after today.
      const today = payoff.day;
      const k = Math.round((Date.parse(today) - Date.parse(payoutDay)) / 86_400_000);
      expect(
        detail.accruals.map((a) => a.day),
        when,
      ).toEqual(Array.from({ length: Math.max(0, k - 7) }, (_, i) => addDays(payoutDay, 8 + i)));
      // The days the settlement posted are the list's, to the minor unit.
      const posted = await chargesOf(ctx.db, id);
      expect(
        posted.map((p) => ({ day: p.day, interest: p.interest })),
        when,
      ).toEqual(
        detail.accruals
          .filter((a) => posted.some((p) => p.day === a.day))
          .map((a) => ({ day: a.day, interest: u(a.interest) })),
      );
    };

    for (let day = 6; day <= 12; day++) {
      // Midnight, before the settlement's run; after it; midday; the last minute of the day.
      at(100 + day, 0);
      await agree(`day ${day} 00:00`);
      clock.now += 10 * 60_000;
      expect(await loans.runDaily(runner)).toEqual([]);
      await agree(`day ${day} 00:10`);
      at(100 + day, 12);
      if (day === 10)
        await loans.repay('live', c.id, { loanId: id, requestId: 'agree-part', full: false, amount: '100' });
      await agree(`day ${day} 12:00`);
      clock.now = Date.parse(`${addDays(payoutDay, day)}T23:59:00Z`);
      await agree(`day ${day} 23:59`);
    }
    // Repaid in full: the list stops at the day it closed, and nothing is owed.
    at(113, 12);
    await loans.repay('live', c.id, { loanId: id, requestId: 'agree-full', full: true });
    at(115, 12);
    const closed = await loans.detail('live', c.id, id);
    expect(closed.state).toBe('repaid');
    expect(closed.accruals.at(-1)?.day).toBe(addDays(payoutDay, 13));
    expect(closed.outstanding.total).toBe('0.000000');
    expect(closed.accruals.reduce((sum, a) => sum + u(a.interest), 0n)).toBe(u(closed.paid.interest));
  });
});
