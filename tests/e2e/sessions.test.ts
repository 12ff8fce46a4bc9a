import { describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { useApp } from '../support/e2e.ts';
import { BalancePage, LoginPage, NoticeDialog, TransactionsPage } from '../support/pages/index.ts';

/**
 * An ended session and password guessing, as a customer meets them in the browser. Its own server,
 * so the login limits it trips cannot reach other test files.
 */
const app = useApp();

describe('sessions in the browser', () => {
  it('a session ended elsewhere (401) returns the customer to the login page, with the local session cleared', async () => {
    const session = await app.customer('ended@example.com');
    const { page, errors, context } = await app.open('desktop', { as: session });
    await new BalancePage(page).goto();
    await new NoticeDialog(page).close();
    await page.getByText('100,000.00').first().waitFor();

    // The session ends on the server (another device logs it out): the next call answers 401.
    const ended = await customerApi(app.server, session).call('logout');
    expect(ended.status).toBe(200);
    await new TransactionsPage(page).goto();
    const login = new LoginPage(page);
    await login.waitForPath('/pass/login');
    expect(await login.stored('token')).toBeNull();
    expect(await login.stored('isLogin')).not.toBe('true');
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('password guessing is stopped: after repeated wrong passwords the form says to wait, even for the right one', async () => {
    await app.customer('guessed@example.com', 'the right passphrase');
    const { page, context } = await app.open('desktop');
    const login = new LoginPage(page);
    await login.goto();
    await login.userName.fill('guessed@example.com');
    let limited = false;
    for (let attempt = 1; attempt <= 15 && !limited; attempt++) {
      await login.retry(`guess number ${attempt}`);
      await expect
        .poll(async () => ((await login.alert.count()) ? await login.alert.first().innerText() : ''))
        .toMatch(/Wrong password\.|Too many attempts/);
      limited = (await login.alert.first().innerText()).includes('Too many attempts');
      if (!limited) {
        // Each answer is read before the next guess: clear it so the next one is seen.
        await login.password.fill('');
      }
    }
    expect(limited).toBe(true);
    await login.retry('the right passphrase');
    await login.waitForAlert('Too many attempts');
    expect(login.pathname()).toBe('/pass/login');
    await context.close();
  });
});
