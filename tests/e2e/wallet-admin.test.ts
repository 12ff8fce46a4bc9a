import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import {
  DepositReviewPage,
  NetworksPage,
  TreasuryPage,
  WalletRecordsPage,
  WithdrawalReviewPage,
} from '../support/pages/index.ts';
import { uploadedId } from '../support/uploads.ts';

const app = useApp({
  staff: { email: 'money@swx.test', role: 'finance' },
  // Network terms are customer terms: an admin changes them (packages/contract/src/roles.ts).
  moreStaff: [{ email: 'terms@swx.test', role: 'admin' }],
});
let customer: Session;
/** A Bitcoin transaction id: 64 hex digits (the server keeps it without a 0x). */
const TX_HASH = '5e'.repeat(32);

beforeAll(async () => {
  customer = await app.customer('proof.payer@example.com');
}, 180_000);

/** What an empty queue says, per language. */
const EMPTY = {
  en: { deposits: 'No deposit proof is waiting.', withdrawals: 'No withdrawal is waiting.' },
  ar: { deposits: 'لا يوجد إثبات إيداع في الانتظار.', withdrawals: 'لا يوجد سحب في الانتظار.' },
} as const;

/** One staff session for the file (each sign-in spends an authenticator step). */
let staffSession: StaffSessionData | undefined;
async function staffPage(layout: 'desktop' | 'mobile') {
  staffSession ??= await app.staff.session();
  return app.open(layout, { staff: staffSession });
}

/** The customer, acting in the live book over the API. */
const live = () => customerApi(app.server, customer, { book: 'live' });

describe('money in the back office', () => {
  it('a deposit proof is shown with its image, approved by finance, and credited exactly', async () => {
    const { address } = await live().ok('getDepositAddress', { network: 'BTC-BTC' });
    const proof = await uploadedId(app.server.baseUrl, customer.token, 'deposit_proof', await pngImage());
    await live().ok('recharge', {
      network: 'BTC-BTC',
      amount: '0.02',
      txHash: TX_HASH,
      lastSix: 'q7x9z2',
      proof,
      address,
    });

    const { page: p, errors } = await staffPage('desktop');
    const review = new DepositReviewPage(p);
    await review.gotoQueue();
    expect((await review.rows('deposit-queue')).join('\n')).toContain('proof.payer@example.com');
    await expectAccessible(p, 'desktop /admin/deposits');
    await review.review('proof.payer@example.com');
    // The proof image itself, fetched with the staff token from the one file route.
    await review.proof.waitFor();
    expect(await review.proof.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    await p.getByText('matches', { exact: true }).waitFor();
    await expectAccessible(p, 'desktop /admin/deposits/:id');
    await review.claim();
    await review.approve();
    await p
      .getByText(
        "Approved; the customer was notified and the amount is credited, at once or, for a proof checked on chain, at the network's confirmations.",
      )
      .waitFor();

    const balances = await live().ok('getBalances');
    expect(balances.balances.find((b) => b.asset === 'BTC')?.balance).toMatch(/^0\.02(0*)$/);
    const [deposit] = await live().ok('listRecharge');
    expect(deposit).toMatchObject({ txHash: TX_HASH, source: 'proof' });
    expect(['credited', 'available']).toContain(deposit?.state);

    // The customer's record says so.
    await readAllNotices(app.server, customer.token);
    const { page: c } = await app.open('mobile', { as: customer });
    await c.goto('/profile/deposits');
    const records = new WalletRecordsPage(c);
    await records.useLive();
    await records.deposits.waitFor();
    expect(await records.depositRows().first().getAttribute('data-state')).toBe(deposit?.state);
    expect(await records.depositRows().first().innerText()).toContain('0.02 BTC');
    // The network in words, not its id.
    expect(await records.fact(records.depositRows().first(), 'network').innerText()).toBe(
      'BTC on Bitcoin (SegWit)',
    );
    expect(errors).toEqual([]);
  });

  it('networks: finance reads them; an admin changes a minimum, which customers then read', async () => {
    const finance = await staffPage('desktop');
    const read = new NetworksPage(finance.page);
    await read.goto();
    await read.row('USDT-EVM').waitFor();
    await finance.page.getByText('Only admins change networks; you can read them.').waitFor();
    expect(await read.table.getByRole('button', { name: /Edit/ }).count()).toBe(0);
    expect(finance.errors).toEqual([]);
    await finance.context.close();
    const { page: p, errors } = await app.open('desktop', {
      staff: await app.staffAccount('terms@swx.test').session(),
    });
    const networks = new NetworksPage(p);
    await networks.goto();
    await networks.row('USDT-EVM').waitFor();
    await expectAccessible(p, 'desktop /admin/networks');
    await networks.edit('USDT-EVM', { 'Deposit minimum': '130' });
    const usdt = (await live().ok('listNetworks')).find((n) => n.id === 'USDT-EVM');
    expect(Number(usdt?.depositMinimum)).toBe(130);
    expect(errors).toEqual([]);
  });

  it('treasury and the withdrawal queue, accessible at both widths in English and Arabic', async () => {
    for (const layout of ['desktop', 'mobile'] as const)
      for (const language of ['en', 'ar'] as const) {
        const { page: p, errors } = await staffPage(layout);
        const treasury = new TreasuryPage(p);
        await p.goto('/admin/treasury');
        await p.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
        await p.reload();
        if (language === 'ar') expect(await treasury.dir()).toBe('rtl');
        await treasury.table.locator('tbody tr').first().waitFor();
        expect(await treasury.table.locator('tbody tr').count()).toBe(3);
        if (layout === 'desktop' && language === 'en') {
          // Amounts under the one display rule (formatDisplay): at least two decimals, grouped.
          expect(await treasury.cell('USDT', 'Customer balances (live)').innerText()).toBe('0.00 USDT');
          expect(await treasury.cell('BTC', 'Customer balances (live)').innerText()).toBe('0.02 BTC');
          // What sits at customers' deposit addresses, beside the hot wallet: no node to read here.
          expect(await treasury.cell('USDT', "At customers' deposit addresses (on chain)").innerText()).toBe(
            'No node to read',
          );
        }
        await expectAccessible(p, `${layout} ${language} /admin/treasury`);
        await p.goto('/admin/withdrawals');
        await p
          .getByTestId('withdrawal-queue')
          .or(p.getByText(EMPTY[language].withdrawals))
          .first()
          .waitFor();
        await expectAccessible(p, `${layout} ${language} /admin/withdrawals`);
        await p.goto('/admin/networks');
        await new NetworksPage(p).table.locator('tbody tr').first().waitFor();
        await expectAccessible(p, `${layout} ${language} /admin/networks`);
        await p.goto('/admin/deposits');
        await p.getByTestId('deposit-queue').or(p.getByText(EMPTY[language].deposits)).first().waitFor();
        await expectAccessible(p, `${layout} ${language} /admin/deposits`);
        expect(errors).toEqual([]);
        await p.context().close();
      }
    // The page model of the withdrawal queue opens it in English.
    const { page: p } = await staffPage('desktop');
    await new WithdrawalReviewPage(p).gotoQueue();
  });
});
