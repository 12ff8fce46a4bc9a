import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, type Layout } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import {
  AddressesPage,
  DepositPage,
  NoticeDialog,
  ProfilePage,
  WalletPage,
  WalletRecordsPage,
  WithdrawPage,
} from '../support/pages/index.ts';

const app = useApp();

/** The wallet screens, each with what shows once it has loaded (its page states done). */
const SCREENS: readonly { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/profile/deposit', ready: (p) => new DepositPage(p).qr.waitFor() },
  {
    path: '/profile/withdraw',
    // Without a node here (CHAIN=off) no network can be withdrawn from: the reasons stand instead of the form.
    ready: (p) => new WithdrawPage(p).form.or(new WithdrawPage(p).closed).first().waitFor(),
  },
  { path: '/profile/addresses', ready: (p) => new AddressesPage(p).form.waitFor() },
  {
    path: '/profile/deposits',
    ready: (p) => p.getByTestId('deposit-record').or(p.locator('.page-state.empty')).first().waitFor(),
  },
  {
    path: '/profile/withdrawals',
    ready: (p) => p.getByTestId('withdrawal-record').or(p.locator('.page-state.empty')).first().waitFor(),
  },
];

/** A signed-in customer in the live book (switched with the switch the demo notice offers). */
async function liveCustomer(layout: Layout, email: string, language?: string) {
  const opened = await app.signedIn(layout, email, language ? { language } : {});
  const wallet = new WalletPage(opened.page);
  await opened.page.goto('/profile/deposit');
  await wallet.useLive();
  return opened;
}

describe('wallet screens', () => {
  it('the demo book says deposits and withdrawals are in the live account and offers the switch', async () => {
    const { page: p, errors } = await app.signedIn('desktop', 'wallet.demo@example.com');
    const profile = new ProfilePage(p);
    await profile.goto();
    await p.getByRole('link', { name: 'Deposit', exact: true }).click();
    const deposit = new DepositPage(p);
    await deposit.waitForPath('/profile/deposit');
    await deposit.demoNotice
      .getByRole('heading', { name: 'Deposits and withdrawals are in your live account' })
      .waitFor();
    expect(await deposit.demoNotice.innerText()).toContain('it holds virtual money for practice');
    // No form in the demo book: the server would refuse there (10043).
    expect(await deposit.proofForm.count()).toBe(0);
    await expectAccessible(p, 'desktop /profile/deposit demo');
    for (const path of [
      '/profile/withdraw',
      '/profile/addresses',
      '/profile/deposits',
      '/profile/withdrawals',
    ]) {
      await p.goto(path);
      await deposit.demoNotice.waitFor();
    }
    await deposit.goto();
    await deposit.useLive();
    await deposit.qr.waitFor();
    expect(errors).toEqual([]);
  });

  it('deposit shows my address with its QR code, the minimum and the confirmations with their times', async () => {
    const { page: p, errors, context } = await liveCustomer('desktop', 'wallet.deposit@example.com');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const deposit = new DepositPage(p);
    await deposit.chooseNetwork('USDT-EVM');
    await deposit.qr.waitFor();
    const address = await deposit.address.innerText();
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // The QR code encodes exactly the address shown.
    expect(await deposit.qr.getAttribute('data-text')).toBe(address);
    expect(await deposit.qr.getAttribute('aria-label')).toContain('USDT');
    expect(await deposit.term('minimum').innerText()).toBe('120.00 USDT');
    expect(await deposit.term('credit').innerText()).toMatch(/^after \d+ confirmations, about \d+ minutes?$/);
    expect(await deposit.term('unlock').innerText()).toMatch(/^after \d+ confirmations, about \d+ minutes?$/);
    await deposit.copyAddress();
    await expect.poll(() => deposit.announced(), { timeout: 15_000 }).toBe('Copied.');
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(address);
    // The proof form's receiving address is mine.
    expect(await deposit.proofForm.getByLabel('Address you sent to').inputValue()).toBe(address);
    // BTC has no node here: credited by proof. The new address and minimum are said, not only shown.
    await deposit.chooseNetwork('BTC-BTC');
    await deposit.term('proof').waitFor();
    expect(await deposit.term('minimum').innerText()).toBe('0.015 BTC');
    await expect
      .poll(() => deposit.announced(), { timeout: 15_000 })
      .toBe('Now showing your deposit address for BTC on Bitcoin (SegWit). Minimum deposit: 0.015 BTC.');
    expect(errors).toEqual([]);
  });

  it('a proof below the minimum is refused with the network minimum and asset named', async () => {
    const { page: p, errors } = await liveCustomer('desktop', 'wallet.proof@example.com');
    const deposit = new DepositPage(p);
    await deposit.chooseNetwork('USDT-EVM');
    await deposit.proofForm.waitFor();
    await deposit.declare({
      amount: '100',
      txHash: `0x${'ab'.repeat(32)}`,
      lastSix: 'a1b2c3',
      image: { name: 'proof.png', mimeType: 'image/png', buffer: await pngImage() },
    });
    await expect
      .poll(() => deposit.fieldError(/^Amount/).innerText(), { timeout: 15_000 })
      .toBe('The minimum deposit on this network is 120.00 USDT. Enter at least that amount of USDT.');
    await expectAccessible(p, 'desktop /profile/deposit proof refused');
    expect(errors).toEqual([]);
  });

  it('an address added to the book shows its lock timer; a network that cannot be withdrawn from says why first', async () => {
    const { page: p, errors } = await liveCustomer('mobile', 'wallet.book@example.com');
    const book = new AddressesPage(p);
    await book.goto();
    await p.getByText('No withdrawal address yet. Add one below.').waitFor();
    // A format error from the server's 10026 issue, under the field.
    await book.add('USDT-EVM', '0x1234', 'Short');
    await expect
      .poll(() => book.addressError().innerText(), { timeout: 15_000 })
      .toMatch(/^This is not a valid address on /);
    const address = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    await book.add('USDT-EVM', address, 'My cold wallet');
    await book.row(address).waitFor();
    // The customer hears of the new address: a notice (and a mail with a lock link).
    expect(await new NoticeDialog(p).closeNext(15_000)).toMatch(
      /The withdrawal address 0x[0-9a-fA-F]{40} on /,
    );
    expect(await book.lock(address).innerText()).toMatch(/^Usable in 2[34] hr/);
    await expect
      .poll(() => book.announced(), { timeout: 15_000 })
      .toBe('Address added. It can be used in 24 hours.');
    await expectAccessible(p, 'mobile /profile/addresses with a locked address');

    // BTC has no node here: said under the picker before an address of it is added (and waits a day).
    await book.chooseNetwork('BTC-BTC');
    expect(await book.closedNote.innerText()).toBe(
      'BTC on Bitcoin (SegWit): withdrawals are not possible here: we run no node for this network, so we cannot send on it. Deposits on it are credited by payment proof. An address of this network cannot be used to withdraw.',
    );

    // Without a node at all (CHAIN=off) nothing can be sent: the withdraw screen offers no network
    // and says why of each, instead of a form whose every quote would be refused.
    const withdraw = new WithdrawPage(p);
    await withdraw.goto();
    await withdraw.closed.waitFor();
    expect(await withdraw.form.count()).toBe(0);
    expect(await withdraw.closedReason('USDT-EVM').innerText()).toBe(
      'USDT on Ethereum (ERC-20): withdrawals are paused: the platform cannot send on this network right now.',
    );
    expect(await withdraw.closedReason('BTC-BTC').innerText()).toMatch(
      /^BTC on Bitcoin \(SegWit\): withdrawals are not possible here: we run no node/,
    );
    expect(errors).toEqual([]);
  });
});

describe('wallet screens are accessible', () => {
  for (const layout of ['desktop', 'mobile'] as const)
    for (const language of ['en', 'ar'])
      it(`every wallet screen, ${layout}, ${language}`, async () => {
        const { page: p, errors } = await liveCustomer(
          layout,
          `wallet.axe.${layout}.${language}@example.com`,
          language,
        );
        const records = new WalletRecordsPage(p);
        if (language === 'ar') expect(await records.dir()).toBe('rtl');
        for (const screen of SCREENS) {
          await p.goto(screen.path);
          await screen.ready(p);
          await expectAccessible(p, `${layout} ${language} ${screen.path}`);
        }
        expect(errors).toEqual([]);
      });
});
