import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';

/**
 * The customer-service chat in the browser: a signed-in customer writes on /service.html (a
 * script in the text stays text), an agent answers from the back office's inbox, the customer
 * sees the answer arrive and, once the agent resolves the conversation, rates it.
 */
const app = useApp({ staff: { email: 'chat.agent@swx.test', role: 'support' } });

describe('support chat', () => {
  it('a customer writes, an agent answers in the back office, the customer sees it and rates the conversation', async () => {
    const { page: agent, errors: agentErrors } = await app.staffPage('desktop', { width: 1280 });
    await agent.goto('/admin/support');
    await agent.getByRole('status').filter({ hasText: 'Live' }).waitFor();

    const { page: customer, errors } = await app.signedIn('desktop', 'chat.customer@example.com', {
      width: 1280,
    });
    await customer.goto('/service.html?language=en&clientId=12');
    await customer.getByText('An agent is online.').waitFor();
    const script = '<script>window.hacked = 1</script> Where is my deposit?';
    await customer.getByLabel('Your message').fill(script);
    await customer.getByRole('button', { name: 'Send', exact: true }).click();
    const log = customer.getByRole('log');
    await log.getByText(script).waitFor();
    expect(await customer.evaluate(() => 'hacked' in window)).toBe(false);

    await agent.getByRole('link', { name: /chat\.customer@example\.com/ }).click();
    await agent.getByRole('log').getByText(script).waitFor();
    await agent.getByRole('textbox', { name: 'Reply' }).fill('Your deposit arrived at 10:02.');
    await agent.getByRole('button', { name: 'Send', exact: true }).click();
    await log.getByText('Your deposit arrived at 10:02.').waitFor();
    await agent.getByRole('log').getByText('Read').waitFor();
    await expectAccessible(customer, 'service page 1280 en');
    await screenshotTo(customer, 'service-1280-en');
    await expectAccessible(agent, 'support inbox 1280 en');
    await screenshotTo(agent, 'admin-inbox-1280-en');

    await agent.getByRole('button', { name: 'Resolve', exact: true }).click();
    await customer.getByRole('group', { name: /How was our help/ }).waitFor();
    await customer.getByRole('radio', { name: '5' }).check();
    await customer.getByRole('button', { name: 'Send rating' }).click();
    await customer
      .getByRole('status')
      .filter({ hasText: 'You rated this conversation 5 out of 5.' })
      .waitFor();
    await agent.getByText('Rating: 5 of 5').waitFor();

    await customer.getByLabel('Language').selectOption('ar');
    await customer.getByRole('heading', { name: 'خدمة العملاء' }).waitFor();
    await screenshotTo(customer, 'service-1280-ar');
    const { page: phone } = await app.open('mobile', {
      as: {
        token: await customer.evaluate(() => localStorage.getItem('token') ?? ''),
        userInfo: { id: 0, userName: '' },
      },
    });
    await phone.goto('/service.html?language=hk');
    await phone.getByRole('heading', { name: '在线客服' }).waitFor();
    await phone.getByLabel('语言').selectOption('en');
    await phone.getByText('Your deposit arrived at 10:02.').waitFor();
    await screenshotTo(phone, 'service-390-en');
    await phone.getByLabel('Language').selectOption('ar');
    await expectAccessible(phone, 'service page 390 ar');
    await screenshotTo(phone, 'service-390-ar');
    expect([...errors, ...agentErrors]).toEqual([]);
  });
});
