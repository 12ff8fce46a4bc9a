import { describe, expect, it } from 'vitest';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';
import { pdfDocument, pngImage } from '../support/images.ts';

const AGENT = 'visitor.agent@swx.test';
const ADMIN = 'limits.admin@swx.test';
const VISITOR = 'vic.visitor@example.com';

/**
 * The service page for a visitor (no account, an e-mail address) in Chromium: with nobody online
 * the page says so before the visitor types; the visitor writes with a picture attached; an agent
 * comes online, is assigned the conversation, sees the picture and answers with a PDF; the
 * visitor sees the answer arrive, and since nobody was online when it opened, the answer is also
 * mailed. Then an admin sets the agent's limit on the back office's agents' limits screen.
 */
const app = useApp({
  staff: { email: AGENT, role: 'support' },
  moreStaff: [{ email: ADMIN, role: 'admin' }],
});

/** The mail as sent, its quoted-printable soft line breaks joined. */
const mailedTo = (address: string) =>
  app.inbox.messages.filter((m) => m.to === address).map((m) => m.raw.replace(/=\r?\n/g, ''));

describe('support chat for a visitor', () => {
  it('a visitor writes with nobody online, an agent answers, the visitor sees it and gets it by mail', async () => {
    const { page: visitor, errors } = await app.open('desktop', { width: 1280 });
    await visitor.goto('/service.html?language=en');
    await visitor.getByRole('status').filter({ hasText: 'No agent is online now.' }).waitFor();
    await visitor.getByLabel('Your e-mail address').fill(VISITOR);
    await visitor.getByRole('button', { name: 'Start' }).click();
    const message = visitor.getByLabel('Your message');
    await message.waitFor();
    await visitor.getByRole('status').filter({ hasText: 'No agent is online now.' }).waitFor();

    await visitor
      .getByLabel('Attach a picture or PDF')
      .setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: await pngImage(320, 200, 11) });
    await visitor.getByText('Attached: screen.png').waitFor();
    await message.fill('My withdrawal is stuck, see the screen.');
    await message.press('Enter');
    const log = visitor.getByRole('log');
    await log.getByText('My withdrawal is stuck, see the screen.').waitFor();
    await log.getByRole('img', { name: 'Picture' }).waitFor();
    await expectAccessible(visitor, 'service page, visitor, 1280 en');
    await screenshotTo(visitor, 'visitor-1280-en-waiting');

    // An agent opens the inbox: online now, the waiting conversation is assigned to them.
    const { page: agent, errors: agentErrors } = await app.staffPage('desktop', { width: 1280 });
    await agent.goto('/admin/support');
    await agent.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await agent.getByRole('link', { name: new RegExp(VISITOR.replace('.', '\\.')) }).click();
    const transcript = agent.getByRole('log');
    await transcript.getByText('My withdrawal is stuck, see the screen.').waitFor();
    await transcript.getByRole('img', { name: 'Attachment' }).waitFor();
    await agent
      .getByLabel('Attach a picture or PDF')
      .setInputFiles({ name: 'steps.pdf', mimeType: 'application/pdf', buffer: pdfDocument() });
    await agent.getByText('Attached: steps.pdf').waitFor();
    await agent.getByRole('textbox', { name: 'Reply' }).fill('It left at 10:02. The steps are attached.');
    await agent.getByRole('button', { name: 'Send', exact: true }).click();

    await log.getByText('It left at 10:02. The steps are attached.').waitFor();
    await log.getByRole('link', { name: 'Document (PDF), download' }).waitFor();
    await transcript.getByRole('link', { name: 'Document (PDF), download' }).waitFor();
    await expect.poll(() => mailedTo(VISITOR).some((raw) => raw.includes('It left at 10:02.'))).toBe(true);
    await expectAccessible(agent, 'support inbox with attachments 1280 en');
    await screenshotTo(agent, 'inbox-1280-en-attachments');
    await screenshotTo(visitor, 'visitor-1280-en-answered');

    // The same visitor on a phone, in English and Arabic.
    const token = await visitor.evaluate(() => localStorage.getItem('support.visitor') ?? '');
    const { page: phone, errors: phoneErrors } = await app.open('mobile');
    await phone.goto('/service.html?language=en');
    await phone.evaluate((value) => localStorage.setItem('support.visitor', value), token);
    await phone.reload();
    await phone.getByText('It left at 10:02. The steps are attached.').waitFor();
    await expectAccessible(phone, 'service page, visitor, 390 en');
    await screenshotTo(phone, 'visitor-390-en');
    await phone.getByLabel('Language').selectOption('ar');
    await phone.getByRole('link', { name: 'مستند (PDF)، تنزيل' }).waitFor();
    await expectAccessible(phone, 'service page, visitor, 390 ar');
    await screenshotTo(phone, 'visitor-390-ar');
    expect([...errors, ...agentErrors, ...phoneErrors]).toEqual([]);
  });

  it("an admin sets an agent's limit by keyboard on the agents' limits screen", async () => {
    const session = await app.staffAccount(ADMIN).session();
    const { page, errors } = await app.open('desktop', { width: 1280, staff: session });
    await page.goto('/admin/support-agents');
    await page.getByRole('heading', { name: "Agents' limits" }).waitFor();
    const field = page.getByRole('spinbutton', { name: `Limit of ${AGENT}` });
    await field.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await page.getByText('Enter a whole number from 1 to 50.').waitFor();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save');
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `${AGENT} now takes up to 3 at once.` })
      .waitFor();
    await page.getByRole('cell', { name: new RegExp(`^${ADMIN.replace(/\./g, '\\.')} · `) }).waitFor();
    await expectAccessible(page, 'agents limits 1280 en');
    await screenshotTo(page, 'limits-1280-en');

    const { page: phone, errors: phoneErrors } = await app.open('mobile', {
      staff: session,
      language: 'ar',
      locale: 'ar',
    });
    await phone.goto('/admin/support-agents');
    await phone.getByRole('heading', { name: 'حدود الموظفين' }).waitFor();
    await phone.getByRole('spinbutton', { name: `حد ${AGENT}` }).waitFor();
    await expectAccessible(phone, 'agents limits 390 ar');
    await screenshotTo(phone, 'limits-390-ar');
    expect([...errors, ...phoneErrors]).toEqual([]);
  });
});
