import { ASSET_SCALES, formatMinor, parseMinor } from '@swx/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { fundLive } from '../support/funding.ts';
import { verifyIdentityByApi } from '../support/kyc.ts';
import { InvitePage, RegisterPage } from '../support/pages/index.ts';
import { advanceClock } from '../support/server.ts';
import { enrolStaffByApi } from '../support/staff.ts';

/**
 * Invite friends on a real server with a movable clock: a friend registers through the inviter's
 * link, is verified, deposits and swaps in the live book; the next day's run puts the inviter's
 * share of the fee the ledger collected on hold, and seven days later it is paid into the
 * inviter's live balance. The inviter watches it on /profile/invite, on a phone.
 */
const app = useApp({
  env: { SWX_CLOCK: 'movable' },
  staff: { email: 'invites.admin@swx.test', role: 'admin' },
});
const BTC = ASSET_SCALES.BTC;

let admin: StaffApi;
let compliance: StaffApi;

beforeAll(async () => {
  const adminToken = (await app.staff.session()).token;
  admin = staffApi(app.server, adminToken);
  const created = await admin.ok('createStaff', { email: 'invites.kyc@swx.test', role: 'compliance' });
  compliance = staffApi(
    app.server,
    (await enrolStaffByApi(app.server.baseUrl, 'invites.kyc@swx.test', created.oneTimePassword)).token,
  );
});

/** Verified, funded and trading in the live book: the friend qualifies with this swap. */
async function qualify(friend: Session): Promise<bigint> {
  await verifyIdentityByApi(app.server, friend, compliance, {
    firstName: 'Fred',
    lastName: 'Friend',
    birthdate: '1990-02-03',
    sex: 'male',
    country: 'DE',
    address: '3 Hafenstraße, Hamburg',
    phoneCode: '+49',
    phone: '4012345670',
    documentType: 'idCard',
  });
  await fundLive(app.server, friend, (await app.staff.session()).token, '1000', 'ab');
  const live = customerApi(app.server, friend, { book: 'live' });
  const quote = await live.ok('swapQuote', { from: 'USDT', to: 'BTC', amount: '500' });
  await live.ok('instantExchange', { quoteId: quote.quoteId, requestId: 'invite-friend-swap-1' });
  return parseMinor(quote.fee, BTC);
}

describe('invite rewards, from a friend’s first trade to the payout', () => {
  it('puts the share of the fee collected on hold the next day, and pays it seven days later', async () => {
    const { page, session: inviter } = await app.signedIn('mobile', 'ines.rewards@example.com');
    const { code, linkPath } = await customerApi(app.server, inviter).ok('getMyInvite');
    // The friend registers through the invite link in a browser of their own.
    const visitor = await app.open('desktop');
    await visitor.page.goto(linkPath);
    const register = new RegisterPage(visitor.page);
    expect(await register.inviteCode.inputValue()).toBe(code);
    await register.completeByEmail('fred.rewards@example.com', 'friend passphrase', (to) =>
      app.inbox.codeFor(to),
    );
    await visitor.context.close();
    const signedIn = await customerApi(app.server).ok('login', {
      userName: 'fred.rewards@example.com',
      password: 'friend passphrase',
    });
    if (!('token' in signedIn)) throw new Error('the friend has no second step');
    const friend: Session = signedIn;
    const fee = await qualify(friend);
    expect(fee).toBeGreaterThan(0n);
    const { terms } = await customerApi(app.server, inviter).ok('getMyInvite');
    const share = (fee * BigInt(terms.shareBps)) / 10_000n;
    expect(share).toBeGreaterThan(0n);

    // The next day's run counts the day closed: the share is on hold, payable in seven days.
    await advanceClock(app.server, '1d');
    const invite = new InvitePage(page);
    await invite.goto();
    const btc = invite.totals.locator('tr[data-asset="BTC"]');
    await expect
      .poll(() => btc.locator('td').nth(1).getAttribute('data-value'))
      .toBe(formatMinor(share, BTC));
    expect(await btc.locator('td').nth(2).getAttribute('data-value')).toBe(formatMinor(0n, BTC));
    // The friends list is its own request: it may answer after the totals.
    await expect.poll(() => invite.friends.locator('tr[data-state="qualified"]').count()).toBe(1);
    expect(await invite.friends.innerText()).toContain('fr***@example.com');
    await expect.poll(() => invite.rewards.locator('tr[data-state="on_hold"]').count()).toBe(1);
    await expectAccessible(page, 'invite page with a reward on hold, 390 px');

    // Seven days on: paid into the inviter's live balance from the fees account, and told.
    await advanceClock(app.server, '7d');
    await invite.page.reload();
    await expect
      .poll(() => btc.locator('td').nth(2).getAttribute('data-value'))
      .toBe(formatMinor(share, BTC));
    expect(await btc.locator('td').nth(1).getAttribute('data-value')).toBe(formatMinor(0n, BTC));
    await expect.poll(() => invite.rewards.locator('tr[data-state="paid"]').count()).toBe(1);
    const balances = await customerApi(app.server, inviter, { book: 'live' }).ok('getBalances');
    expect(balances.balances.find((b) => b.asset === 'BTC')?.available).toBe(formatMinor(share, BTC));
    const notices = await customerApi(app.server, inviter).ok('getNoticeList');
    expect(notices.some((n) => n.noticeContent.startsWith('Your invite reward for'))).toBe(true);
    await readAllNotices(app.server, inviter.token);

    // The staff view: the link qualified, what it paid, and the day's payout as one ledger entry.
    const [link] = await admin.ok('listInviteLinks', { search: 'fred.rewards@example.com' });
    expect(link).toMatchObject({
      state: 'qualified',
      paid: [{ asset: 'BTC', amount: formatMinor(share, BTC) }],
    });
    const [payout] = await admin.ok('listInvitePayouts', {});
    expect(payout?.inviterId).toBe(inviter.userInfo.id);
    expect(payout?.entryId).toBeGreaterThan(0);
    await page.context().close();
  });
});
