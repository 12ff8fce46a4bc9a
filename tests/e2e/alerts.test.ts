import { describe, expect, it } from 'vitest';
import { productBody } from '../../apps/server/src/test/earn.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';

/**
 * Alerts that reach people, in the browser: a customer's security mail carries a lock link whose
 * page locks the account with one button; an earn reserve that cannot pay raises a staff alert
 * the finance role finds on the back office's alerts screen, acknowledges and resolves with a note.
 */
const app = useApp({
  staff: { email: 'alerts.admin@swx.test', role: 'admin' },
  // Finance acts on reserves: the alert's mail goes to them, not to the admin.
  moreStaff: [{ email: 'alerts.finance@swx.test', role: 'finance' }],
});

/** The newest mail to an address whose subject says this (folded headers and soft breaks undone). */
async function mailTo(email: string, subject: string, seconds = 5): Promise<string> {
  for (let i = 0; i < seconds * 20; i++) {
    const raw = app.inbox.messages
      .filter((m) => m.to === email)
      .map((m) => m.raw.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' '))
      .findLast((text) => /^Subject: .*$/m.exec(text)?.[0].includes(subject));
    if (raw) return raw;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail "${subject}" to ${email}`);
}

describe('alerts', () => {
  it('the lock link of a password-change mail locks the account with one button, once', async () => {
    const session = await app.customer('locked.out@example.com', 'a first passphrase');
    await customerApi(app.server, session).ok('repassword', {
      oldPassword: 'a first passphrase',
      password: 'a second passphrase',
      password2: 'a second passphrase',
    });
    const mail = await mailTo('locked.out@example.com', 'Your SWX password was changed');
    const link = /http:\/\/\S+\/pass\/lock#[a-f0-9]{64}/.exec(mail)?.[0] ?? '';
    expect(link).not.toBe('');

    const { page: p, errors } = await app.open('mobile');
    await p.goto(link);
    await p.getByRole('heading', { name: 'Lock your account', level: 1 }).waitFor();
    await expectAccessible(p, 'mobile /pass/lock');
    // Opening the link locked nothing: the session still works until the button is pressed.
    expect((await customerApi(app.server, session).call('getUserInfo')).status).toBe(200);
    await p.getByTestId('lock-account').click();
    await p.getByRole('status').filter({ hasText: 'Your account is locked' }).waitFor();
    expect((await customerApi(app.server, session).call('getUserInfo')).status).toBe(401);
    const login = await customerApi(app.server).call('login', {
      userName: 'locked.out@example.com',
      password: 'a second passphrase',
    });
    expect(login.code).toBe(10005);

    // The same link again: used.
    await p.goto('/');
    await p.goto(link);
    await p.getByTestId('lock-account').click();
    await p.getByRole('alert').filter({ hasText: 'This lock link was already used' }).waitFor();
    expect(errors).toEqual([]);
    await p.context().close();
  });

  it('finance finds an empty reserve on the alerts screen, acknowledges it and resolves it with a note', async () => {
    // An admin's product with no reserve; a customer's quote is refused as sold out (10044), before
    // the last click.
    const admin = await app.staff.session();
    const staff = staffApi(app.server, admin.token);
    const customer = await app.customer('reserve.buyer@example.com');
    const { product } = await staff.ok('createEarnProduct', productBody({ name: 'Unfunded harbour fund' }));
    const buyer = customerApi(app.server, customer, { book: 'demo' });
    expect((await buyer.call('earnQuote', { productId: product.id, amount: '500' })).code).toBe(10044);
    // Mailed to finance by the alerts job (once a minute), not to the admin.
    expect(
      await mailTo('alerts.finance@swx.test', "an earn product's reserve cannot cover new interest", 90),
    ).toContain('Unfunded harbour fund');
    expect(
      app.inbox.messages.some((m) => m.to === 'alerts.admin@swx.test' && m.raw.includes('SWX alert')),
    ).toBe(false);

    const { page: p, errors } = await app.open('desktop', { staff: admin, width: 1280 });
    await p.goto('/admin/alerts');
    await p.getByRole('heading', { name: 'Alerts', level: 2 }).waitFor();
    const row = p.getByTestId('alerts-table').locator('tr').filter({ hasText: 'Unfunded harbour fund' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Earn reserve cannot cover new interest');
    expect(await row.innerText()).toContain('Mailed to Finance');
    await expectAccessible(p, 'desktop /admin/alerts');

    await row.getByRole('button', { name: /^Acknowledge alert/ }).click();
    await row.waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Acknowledged', exact: true }).click();
    const acknowledged = p
      .getByTestId('alerts-table')
      .locator('tr')
      .filter({ hasText: 'Unfunded harbour fund' });
    await acknowledged.waitFor();
    await acknowledged.getByRole('button', { name: /^Resolve alert/ }).click();
    await p.getByLabel('Note').fill('reserve funded');
    await p.locator('form button[type="submit"]').filter({ hasText: 'Resolve' }).click();
    await acknowledged.waitFor({ state: 'detached' });
    await p.getByRole('button', { name: 'Resolved', exact: true }).click();
    const resolved = p.getByTestId('alerts-table').locator('tr').filter({ hasText: 'Unfunded harbour fund' });
    await resolved.waitFor();
    expect(await resolved.innerText()).toContain(admin.staff.email);
    expect(errors).toEqual([]);
    await p.context().close();
  }, 240_000);
});
