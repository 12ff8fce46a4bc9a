import { ownershipMessage } from '@swx/contract';
import type { Page } from 'playwright-core';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerOf } from '../../apps/server/src/modules/nft/chain/nft.chain.ts';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { DonationLogPage, MyNftsPage, NftDropsAdminPage, NftPage } from '../support/pages/nft-pages.ts';
import { advanceClock } from '../support/server.ts';

/**
 * Charity NFTs on a real server, a development chain and a movable clock: staff make and mint a
 * drop in the back office; customer A bids, customer B outbids, A is told; past the end the
 * settlement runner gives the NFT to B, who sends it to their self-custody wallet's address on the
 * chain; B then checks, in the page, that their donation is in the signed donation log.
 * Screenshots (desktop and 390 px, English and Arabic) go to SCREENSHOT_DIR when it is set.
 */
let chain: TestChain | undefined;
const app = useApp({
  env: async () => {
    chain = await startTestChain();
    return { ...chain.env, SWX_CLOCK: 'movable', WALLET_POLL_MS: '100' };
  },
  staff: { email: 'nft.admin@swx.test', role: 'admin' },
  // The second pair of eyes on a charity payout.
  moreStaff: [{ email: 'nft.second@swx.test', role: 'admin' }],
  after: async () => {
    await chain?.close();
  },
});

const DROP = 'Harbour at dawn';
const CHARITY = 'Children of the Harbour';
const BEN = 'ben.bidder@example.com';
const CHARITY_ADDRESS = `0x${'c4'.repeat(20)}`;
let charityId = '';
let admin: StaffApi;
let staffToken = '';
/** The one staff session of the file: an authenticator code is good once, and the clock moves later. */
let staffSession: StaffSessionData;

beforeAll(async () => {
  staffSession = await app.staff.session();
  staffToken = staffSession.token;
  admin = staffApi(app.server, staffToken);
  charityId = (await admin.ok('addNftCharity', { name: CHARITY, address: CHARITY_ADDRESS })).id;
});

/** The live book in this page (the `virtually` header follows it). */
async function useLiveBook(p: Page): Promise<void> {
  // Before the app's own scripts on every load: the app writes its whole state back on a change.
  await p.context().addInitScript(() => localStorage.setItem('virtual', '0'));
  if (p.url().startsWith('http')) await p.reload();
}

/** Live USDT for a customer: sent on the chain to their deposit address, mined until it is available. */
async function fundOnChain(customer: Session, usdt: number): Promise<void> {
  const live = customerApi(app.server, customer, { book: 'live' });
  const { address } = await live.ok('getDepositAddress', { network: 'USDT-EVM' });
  const dev = chain?.dev;
  if (!dev) throw new Error('no chain');
  await dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: BigInt(usdt) * 1_000_000n });
  const end = Date.now() + 90_000;
  while ((await live.ok('listRecharge'))[0]?.state !== 'available') {
    if (Date.now() > end) throw new Error('the deposit was not credited');
    await dev.mine(1);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A self-custody wallet's address, proved the customer's own, added to their withdrawal addresses. */
async function addSelfCustody(customer: Session): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const signature = await account.signMessage({
    message: ownershipMessage(account.address, customer.userInfo.id),
  });
  await customerApi(app.server, customer, { book: 'live' }).ok('addWithdrawalAddress', {
    network: 'USDT-EVM',
    address: account.address,
    label: 'My wallet',
    signature,
  });
  return account.address;
}

describe('a charity NFT from mint to a verified donation', () => {
  let dropId = '';
  let winner: Session | undefined;

  it('staff make a drop with its artwork and mint it on the chain', async () => {
    const { page: p } = await app.open('desktop', { staff: staffSession });
    const drops = new NftDropsAdminPage(p);
    await drops.gotoNew();
    await expectAccessible(p, 'desktop /admin/nft/new');
    await drops.create({
      name: DROP,
      creator: 'Mira Okafor',
      charity: CHARITY,
      artwork: { name: 'harbour.png', mimeType: 'image/png', buffer: await pngImage(600, 600, 7) },
      startPrice: '100',
      durationMinutes: '60',
    });
    await drops.mint(DROP);
    await expectAccessible(p, 'desktop /admin/nft (minted)');
    await screenshotTo(p, 'admin-drops-desktop-en');
    const [drop] = await admin.ok('listNftDrops', {});
    expect(drop).toMatchObject({ name: DROP, state: 'live', book: 'live' });
    expect(drop?.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    dropId = drop?.id ?? '';
    await p.context().close();
  });

  it('staff see a mistyped charity address worded on the field, in English and Arabic, on both layouts', async () => {
    // 0x5290…9EE7 with one letter's case changed: its EIP-55 checksum does not hold.
    const mistyped = '0x52908400098527886E0F7030069857D2E4169Ee7';
    for (const layout of ['desktop', 'mobile'] as const)
      for (const language of ['en', 'ar'] as const) {
        const { page: p } = await app.open(layout, { staff: staffSession });
        await p.goto('/admin/nft/charity');
        await p.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
        await p.reload();
        const form = p.getByTestId('nft-add-charity');
        await form.locator('input').nth(0).fill('Typo Fund');
        await form.locator('input[name="address"]').fill(mistyped);
        await form.locator('button[type="submit"]').click();
        const error = form.locator('.error-text');
        await error.waitFor();
        if (language === 'en') expect(await error.innerText()).toContain('checksum (EIP-55) does not hold');
        const field = form.locator('input[name="address"]');
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        // The field to fix has the focus: its error is read out with it.
        expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
        await expectAccessible(p, `${layout} ${language} /admin/nft/charity mistyped address`);
        await screenshotTo(p, `admin-charity-${layout}-${language}`);
        await p.context().close();
      }
    expect((await admin.ok('listNftCharities')).charities.map((c) => c.name)).not.toContain('Typo Fund');
  });

  it('A bids, B outbids by the stated increment, and A is told', async () => {
    const a = await app.signedIn('desktop', 'ada.bidder@example.com');
    const b = await app.signedIn('mobile', BEN);
    winner = b.session;
    await fundOnChain(a.session, 1000);
    await fundOnChain(b.session, 1000);
    await useLiveBook(a.page);
    const pageA = new NftPage(a.page);
    await pageA.goto(dropId);
    // The rules are on the page before the first bid.
    expect(await pageA.rules.innerText()).toContain('Each next bid beats the current one by at least');
    expect(await pageA.fact('contract')).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await expectAccessible(a.page, 'desktop /nfts/:id before the first bid');
    await screenshotTo(a.page, 'detail-desktop-en');
    await pageA.reviewBid('100');
    expect(await pageA.figure('amount')).toBe('100.000000');
    expect(await pageA.figure('charity')).toBe('100.000000');
    await expectAccessible(a.page, 'desktop bid confirm');
    await screenshotTo(a.page, 'bid-confirm-desktop-en');
    await pageA.confirmShown();
    await pageA.mineIn('leading').waitFor();

    await useLiveBook(b.page);
    const pageB = new NftPage(b.page);
    await pageB.goto(dropId);
    // 5 % over 100: the least next bid is 105.
    await pageB.askBid('104');
    await b.page.getByText(/Bid at least\W*105\.00 USDT/).waitFor();
    await pageB.reviewBid('105');
    await pageB.confirmShown();
    await pageB.mineIn('leading').waitFor();
    await expectAccessible(b.page, '390 px /nfts/:id leading');
    await screenshotTo(b.page, 'detail-mobile-en');

    await a.page.goto('/profile/notification');
    await a.page.getByText(`You were outbid on ${DROP}.`, { exact: false }).waitFor();
    await a.page.context().close();
    await b.page.context().close();
  });

  it('past the end B wins, holds the NFT, and checks the donation in the page', async () => {
    await advanceClock(app.server, '2h');
    const [drop] = await admin.ok('listNftDrops', {});
    expect(drop?.state).toBe('sold');
    if (!winner) throw new Error('B did not bid');
    // B's self-custody wallet, proved theirs, added now: usable past its 24 h lock.
    const wallet = await addSelfCustody(winner);
    // A day on: the log's daily signed head covers the sale.
    await advanceClock(app.server, '25h');
    // The notices of the new address and the win are read: none opens over the page.
    await readAllNotices(app.server, winner.token);
    const b = await app.open('mobile', { as: winner });
    await useLiveBook(b.page);
    const mine = new MyNftsPage(b.page);
    await mine.goto();
    await mine.holding(dropId).waitFor();
    await expectAccessible(b.page, '390 px /nfts/mine');
    await screenshotTo(b.page, 'mine-mobile-en');
    // Sent from this page to the self-custody address, confirmed with the mailed code.
    await mine.send(
      dropId,
      wallet,
      () => app.inbox.codeFor(BEN),
      async () => {
        // The address and the contract as the customer reads them: EIP-55 checksummed.
        const figures = mine.sendConfirm.getByTestId('nft-send-figures');
        expect(await figures.locator('[data-figure="address"]').getAttribute('data-value')).toBe(wallet);
        expect(await figures.locator('[data-figure="address"] code').innerText()).toBe(wallet);
        await expectAccessible(b.page, '390 px /nfts/mine send confirm');
        await screenshotTo(b.page, 'send-confirm-mobile-en');
      },
    );
    await expect.poll(() => mine.holding(dropId).getAttribute('data-state')).toBe('sent');
    const held = mine.holding(dropId);
    // Addresses as the customer reads them: EIP-55 checksummed (the wallet's own form of it).
    expect(await held.locator('[data-fact="sentTo"]').getAttribute('data-value')).toBe(wallet);
    expect(await held.getByTestId('nft-sent-to').innerText()).toBe(wallet);
    const contract = await held.locator('[data-fact="contract"] code').innerText();
    expect(contract).toBe(getAddress(contract));
    // The chain says the self-custody address owns the token, sent in the transaction shown.
    const [sold] = await admin.ok('listNftDrops', {});
    const opened = chain;
    if (!opened || !sold?.contractAddress || !sold.tokenId) throw new Error('no token on the chain');
    const owner = await ownerOf(opened, sold.contractAddress as `0x${string}`, BigInt(sold.tokenId));
    expect(owner).toBe(wallet.toLowerCase());
    const tx = await held.locator('[data-fact="tx"]').getAttribute('data-value');
    const receipt = await opened.chain.receipt(tx as `0x${string}`);
    expect(receipt?.status).toBe('success');
    await expectAccessible(b.page, '390 px /nfts/mine sent');
    await screenshotTo(b.page, 'mine-sent-mobile-en');
    // The donation, checked in the page against the signed head (published daily).
    const log = new DonationLogPage(b.page);
    await log.goto(dropId);
    // The leaves of this drop only, asked of the server by drop: its sale.
    await expect.poll(() => log.leafDrops()).toEqual([String(dropId)]);
    const verdict = await log.checkMine();
    expect(verdict).toMatchObject({ ok: 'true' });
    await expectAccessible(b.page, '390 px /nfts/log with a verified donation');
    await screenshotTo(b.page, 'log-mobile-en');
    await b.page.context().close();
  });

  it('filters the log by drop on a desktop in English', async () => {
    const { page: p } = await app.open('desktop');
    const log = new DonationLogPage(p);
    await log.goto();
    await log.filterByDrop(dropId);
    await expect.poll(() => log.leafDrops()).toEqual([String(dropId)]);
    await expectAccessible(p, 'desktop /nfts/log?drop');
    await screenshotTo(p, 'log-drop-desktop-en');
    await p.context().close();
  });

  it('shows the market and the log in Arabic and on a phone, right to left', async () => {
    for (const layout of ['desktop', 'mobile'] as const) {
      const { page: p } = await app.open(layout, { language: 'ar' });
      await useLiveBook(p);
      await p.goto('/nfts');
      await p.getByTestId('nft-market').waitFor();
      expect(await p.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await expectAccessible(p, `${layout} /nfts in Arabic`);
      await screenshotTo(p, `market-${layout}-ar`);
      await p.goto(`/nfts/${dropId}`);
      await p.getByTestId('nft-facts').waitFor();
      await screenshotTo(p, `detail-${layout}-ar`);
      const log = new DonationLogPage(p);
      await log.goto();
      await expectAccessible(p, `${layout} /nfts/log in Arabic`);
      await screenshotTo(p, `log-${layout}-ar`);
      // The leaves filtered by drop from the page's own form.
      await log.filterByDrop(dropId);
      await expect.poll(() => log.leafDrops()).toEqual([String(dropId)]);
      await expectAccessible(p, `${layout} /nfts/log?drop in Arabic`);
      await screenshotTo(p, `log-drop-${layout}-ar`);
      await p.context().close();
    }
  });
  it('pays the charity out: proposed, approved by another, sent on the chain, its leaf on the log page', async () => {
    const opened = chain;
    if (!opened) throw new Error('no chain');
    const before = await opened.chain.balanceOf(CHARITY_ADDRESS as `0x${string}`, 'USDT');
    // Only what the hot wallet sends can be paid out: USDC is refused when proposed, not later.
    expect((await admin.ok('listNftCharities')).payoutAssets).toEqual(['USDT']);
    const usdc = await admin.call('proposeNftPayout', {
      charityId: String(charityId),
      asset: 'USDC',
      amount: '1',
    });
    expect([usdc.code, usdc.data]).toEqual([10068, { sendable: ['USDT'] }]);
    const proposed = await admin.ok('proposeNftPayout', {
      charityId: String(charityId),
      asset: 'USDT',
      amount: '60',
    });
    // Another staff member approves it on the charity screen (the proposer cannot).
    const second = await app.staffAccount('nft.second@swx.test').session();
    const { page: p } = await app.open('desktop', { staff: second });
    await p.goto('/admin/nft/charity');
    // The form offers USDT only and says why USDC is not offered.
    await p
      .getByTestId('nft-propose-payout')
      .getByText('Not sent on the chain, so not offered: USDC.')
      .waitFor();
    await p.getByRole('button', { name: `Approve payout ${proposed.id}` }).click();
    const row = p.getByTestId('nft-payouts').locator(`[data-state]`).first();
    await expect.poll(() => row.getAttribute('data-state')).not.toBe('proposed');
    // The payout job sends it from the hot wallet; mined to the network's confirmations, it is sent.
    const end = Date.now() + 90_000;
    let payout = (await admin.ok('listNftPayouts')).find((x) => x.id === proposed.id);
    while (payout?.state !== 'sent') {
      if (Date.now() > end || payout?.state === 'failed') throw new Error(`payout ${payout?.state}`);
      await opened.dev.mine(1);
      await new Promise((r) => setTimeout(r, 300));
      payout = (await admin.ok('listNftPayouts')).find((x) => x.id === proposed.id);
    }
    // The charity's own address holds exactly the payout more, by the transaction shown.
    const after = await opened.chain.balanceOf(CHARITY_ADDRESS as `0x${string}`, 'USDT');
    expect(after - before).toBe(60_000_000n);
    expect((await opened.chain.receipt(payout.txHash as `0x${string}`))?.status).toBe('success');
    await expect.poll(() => row.getAttribute('data-state')).toBe('sent');
    // The account's sums follow: paid out is the payout sent.
    expect((await admin.ok('listNftCharities')).donated.find((d) => d.asset === 'USDT')?.paidOut).toBe(
      '60.000000',
    );
    await p
      .getByTestId('nft-payouts')
      .getByText(payout.txHash as string)
      .waitFor();
    await expectAccessible(p, 'desktop /admin/nft/charity with a payout sent');
    await screenshotTo(p, 'admin-payouts-desktop-en');
    await p.context().close();
    for (const [layout, language] of [
      ['desktop', 'ar'],
      ['mobile', 'en'],
      ['mobile', 'ar'],
    ] as const) {
      const staffPage = (await app.open(layout, { staff: second })).page;
      await staffPage.goto('/admin/nft/charity');
      // The back office keeps its own language choice.
      await staffPage.evaluate((l) => localStorage.setItem('adminLanguage', l), language);
      await staffPage.reload();
      await staffPage
        .getByTestId('nft-payouts')
        .getByText(payout.txHash as string)
        .waitFor();
      await screenshotTo(staffPage, `admin-payouts-${layout}-${language}`);
      await staffPage.context().close();
    }
    // The public log: the payout's leaf with its transaction hash.
    for (const [layout, language] of [
      ['desktop', 'en'],
      ['desktop', 'ar'],
      ['mobile', 'en'],
      ['mobile', 'ar'],
    ] as const) {
      const { page: q } = await app.open(layout, { language });
      const log = new DonationLogPage(q);
      await log.goto();
      const leaf = q.locator(`tr[data-leaf="${payout.logIndex}"]`);
      await leaf.getByText(payout.txHash as string).waitFor();
      await expectAccessible(q, `${layout} /nfts/log with a payout in ${language}`);
      await screenshotTo(q, `log-payout-${layout}-${language}`);
      await q.context().close();
    }
    // Mined block by block and eight pages read: longer than the file's default.
  }, 300_000);
});
