import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { useApp } from '../support/e2e.ts';
import {
  AddressesPage,
  BalancePage,
  DepositPage,
  NoticeDialog,
  WalletRecordsPage,
  WithdrawPage,
} from '../support/pages/index.ts';
import { createStaffByCli, enrolStaffByApi } from '../support/staff.ts';

/**
 * The whole flow in the browser on a development chain (anvil, the test token) and PostgreSQL: a
 * deposit seen confirming then credited, then a withdrawal whose fee, shown before it is
 * committed, is the fee posted once staff approve it and it confirms on chain.
 */
let chain: TestChain | undefined;
let database: TestDatabase | undefined;
const FINANCE = 'payouts@swx.test';
/** The finance account's one-time password (created by the CLI in the PostgreSQL database). */
let financePassword = '';
const app = useApp({
  env: async () => {
    [chain, database] = await Promise.all([startTestChain(), openTestDatabase({ kind: 'postgres' })]);
    const url = database.url ?? '';
    financePassword = createStaffByCli(mkdtempSync(join(tmpdir(), 'swx-cli-')), FINANCE, 'finance', {
      DATABASE_URL: url,
    });
    return { ...chain.env, WALLET_POLL_MS: '100', DATABASE_URL: url };
  },
  after: async () => {
    await chain?.close();
  },
});
afterAll(async () => {
  await database?.close();
});

const EMAIL = 'chain.customer@example.com';
const USDT = (n: number) => BigInt(n) * 1_000_000n;
let session: Session;

const ready = () => {
  if (!chain || !database) throw new Error('the chain and the database did not start');
  return { chain, database };
};

/** Reads until `done`, mining a block between reads (the watcher and the signer follow blocks). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await ready().chain.dev.mine(1);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('money on a development chain, in the browser', () => {
  it('a deposit sent on chain is seen confirming, then credited to the balance', async () => {
    const opened = await app.signedIn('desktop', EMAIL);
    session = opened.session;
    const { page: p, errors } = opened;
    const deposit = new DepositPage(p);
    await deposit.goto();
    await deposit.useLive();
    await deposit.chooseNetwork('USDT-EVM');
    const address = await deposit.address.innerText();
    await ready().chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(150) });
    // Below the credit depth: "Confirming: k of 12", and the wait counted down from the
    // confirmations left at the network's block time (12 s here): seconds under a minute.
    await deposit.deposit('confirming').waitFor({ timeout: 60_000 });
    const progress = await deposit.deposit('confirming').innerText();
    const done = Number(/Confirming: (\d+) of 12/.exec(progress)?.[1]);
    const seconds = (12 - done) * 12;
    const wait =
      seconds < 60
        ? `about ${seconds} second${seconds === 1 ? '' : 's'}`
        : `about ${Math.round(seconds / 60)} minute${Math.round(seconds / 60) === 1 ? '' : 's'}`;
    expect(progress).toContain(`Confirming: ${done} of 12, ${wait}`);
    await expectAccessible(p, 'desktop /profile/deposit confirming');
    await ready().chain.dev.mine(12);
    await expect
      .poll(async () => deposit.pending.locator('li').first().getAttribute('data-state'), { timeout: 60_000 })
      .not.toBe('confirming');
    const live = customerApi(app.server, session, { book: 'live' });
    await until(
      () => live.ok('listRecharge'),
      (d) => d[0]?.state === 'available',
      'the unlock depth',
    );
    // Followed on this page, it stays in the list as withdrawable, and that is said.
    await deposit.deposit('available').waitFor({ timeout: 30_000 });
    expect(await deposit.deposit('available').innerText()).toContain('Withdrawable now.');
    await expect
      .poll(() => deposit.announced(), { timeout: 15_000 })
      .toBe('Your deposit of 150.00 USDT is withdrawable now.');
    // Below the minimum is final: not on its way, and the record says it was not credited.
    await ready().chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(100) });
    await until(
      () => live.ok('listRecharge'),
      (d) => d[0]?.state === 'below_minimum',
      'the deposit below the minimum',
    );
    const records = new WalletRecordsPage(p);
    await records.gotoDeposits();
    const below = records
      .depositRows()
      .filter({ has: p.locator('[data-state="below_minimum"]') })
      .first();
    await below.waitFor();
    expect(await below.locator('.wallet-state').innerText()).toBe('Not credited (below minimum)');
    expect(await records.fact(below, 'network').innerText()).toBe('USDT on Ethereum (ERC-20)');
    await deposit.goto();
    await deposit.pending.or(p.getByText('No deposit on its way.')).first().waitFor();
    expect(await deposit.pending.locator('li[data-state="below_minimum"]').count()).toBe(0);
    const balance = new BalancePage(p);
    await balance.goto();
    await expect.poll(() => balance.asset('USDT').innerText(), { timeout: 30_000 }).toContain('150.00');
    expect(errors).toEqual([]);
  }, 240_000);

  it('a withdrawal shows its fee and amount received before it is committed, and that fee is posted', async () => {
    // The deposit's notices read (a notice dialog would stand over the page).
    await readAllNotices(app.server, session.token);
    const { page: p, errors } = await app.open('desktop', { as: session });
    const book = new AddressesPage(p);
    await book.goto();
    await book.useLive();
    const to = '0x6666666666666666666666666666666666666666';
    await book.add('USDT-EVM', to, 'Payout');
    await book.row(to).waitFor();
    // The customer hears of the new address: a notice (and a mail with a lock link).
    expect(await new NoticeDialog(p).closeNext(15_000)).toContain(`The withdrawal address ${to} on`);
    // Before any address is usable: the fee rule and what would be received; BTC (no node here)
    // is not offered, and says why.
    const withdraw = new WithdrawPage(p);
    await withdraw.goto();
    await withdraw.chooseNetwork('USDT-EVM');
    expect(await withdraw.lock(to).innerText()).toMatch(/Usable in 2[34] hr/);
    expect(await withdraw.addressChoice(to).isDisabled()).toBe(true);
    expect(await withdraw.previewFact('feeRule')).toEqual({
      text: '0.5% of the amount, rounded up',
      value: '0.005',
    });
    await withdraw.amount.fill('100');
    expect(await withdraw.previewFact('receive')).toEqual({ text: '99.50 USDT', value: '99.500000' });
    expect(await withdraw.closedReason('BTC-BTC').innerText()).toMatch(
      /^BTC on Bitcoin \(SegWit\): withdrawals are not possible here: we run no node/,
    );
    expect(await withdraw.network.first().locator('option[value="BTC-BTC"]').count()).toBe(0);
    // No usable address and an amount below the minimum: both said, the address's aloud, the amount flagged.
    await withdraw.amount.fill('10');
    await withdraw.form.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => withdraw.addressError().innerText()).toBe('Choose an address of your book.');
    expect(await withdraw.amount.getAttribute('aria-invalid')).toBe('true');
    expect(await withdraw.amountError()).toMatch(
      /^The minimum withdrawal on this network is 20(\.00)? USDT\.$/,
    );
    await expectAccessible(p, 'desktop /profile/withdraw refused');

    // A day and a minute ago, for the address and for the account's last security change.
    const { database: db } = ready();
    await db.db.query("UPDATE wallet_addresses SET created_at = now() - interval '25 hours'");
    await db.db.query("UPDATE users SET password_changed_at = now() - interval '25 hours'");
    await withdraw.goto();
    await withdraw.chooseNetwork('USDT-EVM');
    await expect.poll(() => withdraw.lock(to).innerText(), { timeout: 30_000 }).toBe('Usable now');
    await withdraw.review(to, '100');
    const fee = await withdraw.figure('fee');
    const receive = await withdraw.figure('receive');
    expect(fee).toEqual({ text: '0.50 USDT', value: '0.500000' });
    expect(receive).toEqual({ text: '99.50 USDT', value: '99.500000' });
    expect(await withdraw.figures.locator('[data-fact="fee"] dt').innerText()).toBe('Fee (0.5%)');
    await expectAccessible(p, 'desktop /profile/withdraw confirm');
    await withdraw.sendCode();
    await withdraw.confirmWith(await app.inbox.codeFor(EMAIL));
    await withdraw.waitForPath('/profile/withdrawals').catch(async (error) => {
      throw new Error(`the confirm stayed: ${await withdraw.failure()}`, { cause: error });
    });
    const records = new WalletRecordsPage(p);
    const row = records.withdrawalRows().first();
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('pending_review');
    expect(await row.locator('[data-fact="fee"] [data-value]').getAttribute('data-value')).toBe(fee.value);

    // Finance approves; the signer sends; once it confirms, the hold is posted with that fee.
    const finance = staffApi(app.server, await enrolStaffByApi(app.server.baseUrl, FINANCE, financePassword));
    const [queued] = await finance.ok('withdrawalQueue', {});
    if (!queued) throw new Error('the withdrawal is not queued');
    await finance.ok('claimWithdrawal', { id: queued.id });
    await finance.ok('approveWithdrawal', { id: queued.id });
    const live = customerApi(app.server, session, { book: 'live' });
    const [done] = await until(
      () => live.ok('listWithdrwal'),
      (w) => w[0]?.state === 'completed',
      'the payout',
    );
    expect(done).toMatchObject({ fee: fee.value, receive: receive.value });
    const [fees] = await db.db.query<{ balance: string }>(
      "SELECT balance::text FROM ledger_accounts WHERE kind = 'fees' AND book = 'live' AND asset = 'USDT'",
    );
    expect(fees?.balance).toBe(String(USDT(1) / 2n));
    await p.reload();
    await expect
      .poll(() => records.withdrawalRows().first().getAttribute('data-state'), { timeout: 30_000 })
      .toBe('completed');
    expect(await records.fact(records.withdrawalRows().first(), 'network').innerText()).toBe(
      'USDT on Ethereum (ERC-20)',
    );
    expect(
      await records.withdrawalRows().first().locator('[data-fact="txHash"] code').getAttribute('data-hash'),
    ).toMatch(/^0x[0-9a-f]{64}$/);
    expect(errors).toEqual([]);
  }, 240_000);
});
