import { beforeAll, describe, expect, it } from 'vitest';
import { readAllNotices, type Session } from '../support/accounts.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { fundLive } from '../support/funding.ts';
import { advanceClock } from '../support/server.ts';

/**
 * Proof of liabilities in the page: a customer with live USDT, after the day's snapshot (the clock
 * moved a day runs `proofs.daily`), verifies their balance on /proof with the page's own verifier.
 */
const app = useApp({
  env: { SWX_CLOCK: 'movable' },
  staff: { email: 'proofs.admin@swx.test', role: 'admin' },
});

let customer: Session;
beforeAll(async () => {
  customer = await app.customer('proof.customer@swx.test');
  await fundLive(app.server, customer, (await app.staff.session()).token, '250', 'e7');
  await readAllNotices(app.server, customer.token);
  await advanceClock(app.server, '1d');
}, 180_000);

describe('proof of liabilities', () => {
  it('a signed-in customer verifies their USDT balance in the page', async () => {
    const { page, errors } = await app.open('desktop', { as: customer });
    await page.goto('/proof');
    await page.getByRole('heading', { name: 'USDT' }).waitFor();
    await page.getByRole('button', { name: 'Verify my USDT balance' }).click();
    await page.getByText('Verified in this page', { exact: false }).waitFor();
    // The customer's own figures, as the branch they just checked says them.
    expect(await page.locator('.proof-good').innerText()).toContain('250.00');
    await expectAccessible(page, 'proof page');
    await screenshotTo(page, 'proof-desktop-en');
    expect(errors).toEqual([]);
  });

  it('reads in Arabic and on a phone', async () => {
    for (const [layout, language] of [
      ['mobile', 'en'],
      ['mobile', 'ar'],
      ['desktop', 'ar'],
    ] as const) {
      const { page } = await app.open(layout, { language, as: customer });
      await page.goto('/proof');
      await page.getByRole('heading', { name: 'USDT' }).waitFor();
      const usdt = page.locator('.proof-card').filter({ has: page.getByRole('heading', { name: 'USDT' }) });
      await usdt.locator('.proof-verify button').click();
      await usdt.locator('.proof-good').waitFor();
      await screenshotTo(page, `proof-${layout}-${language}`);
    }
  });
});
