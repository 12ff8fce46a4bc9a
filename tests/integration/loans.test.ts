import { loanAgreementAdminUrl, loanAgreementUrl } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi, type Session } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import { verifyIdentityByApi } from '../support/kyc.ts';
import { expectLedgerSound } from '../support/ledger-sound.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';
import { uploadedId } from '../support/uploads.ts';

describe('loans over HTTP: KYC first, the sheet, the signed agreement, approval, repayment, who may see what', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  const staff: Record<string, StaffApi & { token: string }> = {};
  let alice: Session;
  let bob: Session;
  const as = (session: Session, book: 'demo' | 'live' = 'live'): CustomerApi =>
    customerApi(server, session, { book, language: 'en' });
  const roles = ['admin', 'finance', 'compliance', 'support'] as const;

  useServer(
    { staff: roles.map((role) => ({ email: `${role}@swx.test`, role })) },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    for (const role of roles) {
      const enrolled = await enrolStaffByApi(
        server.baseUrl,
        `${role}@swx.test`,
        oneTimePasswords[`${role}@swx.test`] ?? '',
      );
      staff[role] = Object.assign(staffApi(server, enrolled), { token: enrolled.token });
    }
    alice = await registerByApi(server, inbox, 'alice.loan@example.com');
    bob = await registerByApi(server, inbox, 'bob.loan@example.com');
  });

  const asStaff = (role: (typeof roles)[number]) => staff[role] as StaffApi & { token: string };

  const verify = (session: Session) =>
    verifyIdentityByApi(server, session, asStaff('compliance'), {
      firstName: 'Alice',
      lastName: 'Liddell',
      birthdate: '1992-05-04',
      sex: 'female',
      country: 'GB',
      address: '1 Wonderland Road, Oxford',
      phoneCode: '+44',
      phone: '1865000000',
      documentType: 'idCard',
    });

  const download = (path: string, token?: string) =>
    fetch(`${server.baseUrl}${path}`, { headers: token ? { authorization: token } : {} });

  it('borrows with a signed agreement, is paid out on approval, repays in part and in full', async () => {
    // Products and the pool: admin creates, finance funds (a ledger transfer); support may not.
    expect(
      (
        await asStaff('finance').call('createLoanProduct', {
          name: 'Cash 30',
          asset: 'USDT',
          minAmount: '100',
          maxAmount: '4000',
          terms: [30],
          dailyRate: '0.0005',
          interestFreeDays: 7,
          lateDailyRate: '0.001',
          lateCapRate: '0.05',
          enabled: true,
        })
      ).code,
    ).toBe(10029);
    const { product } = await asStaff('admin').ok('createLoanProduct', {
      name: 'Cash 30',
      asset: 'USDT',
      minAmount: '100',
      maxAmount: '4000',
      terms: [30],
      dailyRate: '0.0005',
      interestFreeDays: 7,
      lateDailyRate: '0.001',
      lateCapRate: '0.05',
      enabled: true,
    });
    expect(
      (await asStaff('support').call('fundLoanPool', { asset: 'USDT', amount: '10', reason: 'no' })).code,
    ).toBe(10029);
    const pool = await asStaff('finance').ok('fundLoanPool', {
      asset: 'USDT',
      amount: '50000',
      reason: 'launch',
      requestId: 'loan-pool-launch',
    });
    expect(pool).toMatchObject({ asset: 'USDT', available: '50000.000000', lent: '0.000000' });

    // Without KYC: 10022; the demo book: 10043; the limit says what raises it.
    const quoteBody = { productId: product.id, amount: '1000', termDays: 30 };
    expect((await as(alice).call('loanQuote', quoteBody)).code).toBe(10022);
    expect((await as(alice).ok('loanProducts')).limit).toMatchObject({ kycState: 'none', share: '0' });
    await verify(alice);
    expect((await as(alice, 'demo').call('loanQuote', quoteBody)).code).toBe(10043);
    const offer = await as(alice).ok('loanProducts');
    expect(offer.products.find((p) => p.id === product.id)?.myLimit).toBe('2000.000000');
    expect((await as(alice).call('loanQuote', { ...quoteBody, termDays: 45 })).code).toBe(10023);
    expect((await as(alice).call('loanQuote', { ...quoteBody, amount: '2000.01' })).code).toBe(10013);

    const sheet = await as(alice).ok('loanQuote', quoteBody);
    expect(sheet).toMatchObject({
      totalInterest: '11.500000',
      totalPayable: '1011.500000',
      apr: '14.9',
      interestFreeDays: 7,
      withdrawalDays: 14,
      earlyRepaymentFee: '0.000000',
    });
    // Unsigned: refused before anything is kept.
    const unsigned = await as(alice).call('loan', {
      quoteId: sheet.quoteId,
      requestId: 'alice-loan-1',
      acceptAgreement: true,
    } as never);
    expect(unsigned.code).toBe(10026);
    const signature = await uploadedId(
      server.baseUrl,
      alice.token,
      'loan_signature',
      await pngImage(300, 120, 4),
    );
    const applied = await as(alice).call('loan', {
      quoteId: sheet.quoteId,
      requestId: 'alice-loan-1',
      signature,
      acceptAgreement: true,
    });
    expect(applied.code).toBe(20001);
    const loanId = applied.data?.id ?? 0;
    expect(applied.data).toMatchObject({ state: 'pending', amount: '1000.000000' });

    // The signed agreement: the owner and staff who read applications; nobody else.
    const own = await download(loanAgreementUrl(loanId), alice.token);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await own.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(
      ((await (await download(loanAgreementUrl(loanId), bob.token)).json()) as { code: number }).code,
    ).toBe(10028);
    expect(((await (await download(loanAgreementUrl(loanId))).json()) as { code: number }).code).toBe(401);
    expect(
      (
        (await (await download(loanAgreementUrl(loanId), asStaff('finance').token)).json()) as {
          code: number;
        }
      ).code,
    ).toBe(401);
    expect((await download(loanAgreementAdminUrl(loanId), asStaff('compliance').token)).status).toBe(200);
    expect(
      (
        (await (await download(loanAgreementAdminUrl(loanId), asStaff('support').token)).json()) as {
          code: number;
        }
      ).code,
    ).toBe(10029);
    expect(
      ((await (await download(loanAgreementAdminUrl(loanId), alice.token)).json()) as { code: number }).code,
    ).toBe(401);
    // Another customer's loan: nothing.
    expect((await as(bob).call('loanDetail', { id: loanId })).code).toBe(10028);
    expect((await as(bob).call('loanPayoff', { loanId })).code).toBe(10028);

    // Staff review: the application with its agreement's hash; approval pays out from the pool.
    const queued = await asStaff('finance').ok('loanApplicationQueue', {});
    expect(queued.map((q) => q.id)).toContain(loanId);
    const item = await asStaff('compliance').ok('getLoanApplication', { id: loanId });
    expect(item).toMatchObject({ kycState: 'verified', creditScore: 80, signature });
    expect(item.agreementSha256).toMatch(/^[0-9a-f]{64}$/);
    const before = await as(alice).ok('getBalances');
    await asStaff('finance').ok('claimLoanApplication', { id: loanId });
    await asStaff('finance').ok('approveLoanApplication', { id: loanId });
    const after = await as(alice).ok('getBalances');
    const usdt = (b: typeof before) => b.balances.find((x) => x.asset === 'USDT')?.balance ?? '0';
    expect(BigInt(usdt(after).replace('.', '')) - BigInt(usdt(before).replace('.', ''))).toBe(1_000_000_000n);
    const detail = await as(alice).ok('loanDetail', { id: loanId });
    expect(detail).toMatchObject({ state: 'repaying', outstanding: { total: '1000.000000' } });

    // Repay in part, then in full (inside the interest-free days: the principal only).
    const part = await as(alice).call('completeLoan', {
      loanId,
      requestId: 'alice-repay-1',
      full: false,
      amount: '400',
    });
    expect(part.code).toBe(20005);
    expect(part.data?.outstanding.total).toBe('600.000000');
    const payoff = await as(alice).ok('loanPayoff', { loanId });
    expect(payoff).toMatchObject({ total: '600.000000', interest: '0.000000', withdrawable: true });
    const full = await as(alice).ok('completeLoan', { loanId, requestId: 'alice-repay-2', full: true });
    expect(full.state).toBe('repaid');
    expect(full.repayments.map((r) => r.principal)).toEqual(['400.000000', '600.000000']);
    const list = await as(alice).ok('listLoanRecord', {});
    expect(list[0]).toMatchObject({ id: loanId, state: 'repaid' });
    expect(await as(alice, 'demo').ok('listLoanRecord', {})).toEqual([]);
    expect((await asStaff('finance').ok('listLoanPools')).find((p) => p.asset === 'USDT')).toMatchObject({
      available: '50000.000000',
      lent: '0.000000',
    });
    await expectLedgerSound(server);
  });
});
