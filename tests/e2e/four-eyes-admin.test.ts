import { describe, expect, it } from 'vitest';
import { staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { FourEyesPage } from '../support/pages/index.ts';

const app = useApp({
  staff: { email: 'first.admin@swx.test', role: 'admin' },
  moreStaff: [{ email: 'second.admin@swx.test', role: 'admin' }],
});

/** One session of the first admin for the file (each sign-in spends an authenticator step). */
let firstSession: StaffSessionData | undefined;
const firstAdmin = async () => {
  firstSession ??= await app.staff.session();
  return firstSession;
};

describe('four-eyes thresholds in the back office', () => {
  it('one admin proposes a threshold, the same admin cannot approve it, another admin does', async () => {
    const first = await app.open('desktop', { staff: await firstAdmin() });
    const screen = new FourEyesPage(first.page);
    await screen.goto();
    // The seeded thresholds: about 10,000 USD per asset.
    expect(await screen.row('Withdrawals', 'USDT').innerText()).toContain('10,000.00 USDT');
    expect(await screen.row('Deposit proofs', 'BTC').innerText()).toContain('0.10 BTC');
    expect(await screen.row('Fund payment proofs', 'ETH').innerText()).toContain('2.50 ETH');
    await expectAccessible(first.page, 'desktop /admin/settings/four-eyes');
    await screen.propose('Withdrawals', 'USDT', '20000');
    const waiting = (await screen.rows('four-eyes-pending')).join('\n');
    expect(waiting).toContain('20,000.00 USDT');
    expect(waiting).toContain('Your proposal: another admin approves it.');
    await screenshotTo(first.page, 'four-eyes-1366-en-waiting');
    // The proposer has no approve button, and the threshold has not changed.
    expect(await screen.pending.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await screen.row('Withdrawals', 'USDT').innerText()).toContain('10,000.00 USDT');
    expect(first.errors).toEqual([]);

    // The second admin approves it: the threshold applies from now on.
    const second = await app.open('desktop', {
      staff: await app.staffAccount('second.admin@swx.test').session(),
    });
    const other = new FourEyesPage(second.page);
    await other.goto();
    await other.pending.getByRole('button', { name: 'Approve' }).click();
    await second.page.getByText('Approved; the threshold applies from the next review.').waitFor();
    await expect.poll(async () => other.row('Withdrawals', 'USDT').innerText()).toContain('20,000.00 USDT');
    expect((await other.rows('four-eyes-recent')).join('\n')).toContain('second.admin@swx.test');
    await expectAccessible(second.page, 'desktop /admin/settings/four-eyes decided');
    expect(second.errors).toEqual([]);

    const settings = await staffApi(app.server, await firstAdmin()).ok('getFourEyes');
    expect(settings.thresholds.find((t) => t.kind === 'withdrawal' && t.asset === 'USDT')?.value).toBe(
      '20000',
    );
  });

  it('reads right to left in Arabic at a phone width, accessible', async () => {
    const { page, errors } = await app.open('mobile', { staff: await firstAdmin() });
    await page.goto('/admin/settings/four-eyes');
    await page.evaluate(() => localStorage.setItem('adminLanguage', 'ar'));
    await page.reload();
    await page.getByRole('heading', { name: 'حدود موافقة شخصين', level: 2 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByTestId('four-eyes-thresholds').locator('tbody tr').first().waitFor();
    await expectAccessible(page, 'mobile ar /admin/settings/four-eyes');
    await screenshotTo(page, 'four-eyes-390-ar');
    expect(errors).toEqual([]);
  });
});
