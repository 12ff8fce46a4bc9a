import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible, screenshotTo } from '../support/browser.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import {
  AdminSignInPage,
  AuditPage,
  CustomersPage,
  HelpCentrePage,
  HelpEditorPage,
  KycReviewPage,
  StaffPage,
} from '../support/pages/index.ts';
import { KeyboardUser } from '../support/pages/keyboard.ts';
import { enrolStaffByApi, STAFF_PASSWORD } from '../support/staff.ts';
import { uploadKycPhotos } from '../support/uploads.ts';

const ADMIN = 'chief@swx.test';
const app = useApp({ staff: { email: ADMIN, role: 'admin' } });
let customer: Session;
/** The admin's second session (signed in over the API by the phone test), reused after it. */
let adminSession: StaffSessionData | null = null;

beforeAll(async () => {
  customer = await app.customer('ada.lovelace@example.com');
}, 180_000);

describe('back office as an app', () => {
  it('deep links survive a reload; staff created and changed on a screen; customer page; audit filters and chain check', async () => {
    const { page: p, errors, context } = await app.open('desktop');
    // A deep link before signing in: the sign-in, then that very screen.
    const signIn = new AdminSignInPage(p);
    await signIn.goto(`/admin/customers/${customer.userInfo.id}`);
    await signIn.startEnrolment(ADMIN, app.staff.oneTimePassword);
    app.staff.enrolledWith(await signIn.enrolmentSecret());
    await signIn.finishEnrolment(STAFF_PASSWORD, app.staff.code());
    const customers = new CustomersPage(p);
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();

    // The customer's page: both books, the demo funding entry, a live session, no KYC yet.
    const balances = await customers.rows('customer-balances');
    expect(balances).toHaveLength(8);
    // Amounts under the display rule (formatDisplay): the asset's digits without trailing zeros,
    // at least two decimals, in the staff member's number format; never the wire's "100000.000000".
    expect(balances.join('\n')).toMatch(/Demo\s+USDT\s+100,000\.00\s+0\.00\s+100,000\.00/);
    expect(balances.join('\n')).toMatch(/Live\s+USDT\s+0\.00\s/);
    expect(balances.join('\n')).not.toContain('.000000');
    expect((await customers.rows('customer-transactions')).join('\n')).toMatch(
      /demo_funding\s+\S+\s+100,000\.00 USDT/,
    );
    expect(await customers.rows('customer-sessions')).toHaveLength(1);
    await p.getByText('Never submitted.').waitFor();
    await screenshotTo(p, 'admin-customer-1366-en');
    await expectAccessible(p, 'desktop /admin/customers/:id');
    // Reload keeps the page (the server answers the app for /admin/ paths).
    await p.reload();
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();
    // Sorting by keyboard: the Book header's button, twice, puts Live first.
    await customers.sortByKeyboard('customer-balances', 'Book', 2);
    expect((await customers.rows('customer-balances'))[0]).toMatch(/^Live/);
    expect(await customers.columnSort('customer-balances', 'Book')).toBe('descending');

    // Staff management: create, one-time password once, change role, disable.
    const staff = new StaffPage(p);
    await staff.openScreen('Staff');
    await staff.waitForPath('/admin/staff');
    await staff.heading('Staff', 2).waitFor();
    const password = await staff.create('new.agent@swx.test', 'support');
    expect(password).toMatch(/^([A-Z2-9]{4}-){4}[A-Z2-9]{4}$/);
    await expectAccessible(p, 'desktop /admin/staff, one-time password');
    await staff.passedOn();
    expect(await staff.oneTimePassword.count()).toBe(0);
    await expect
      .poll(async () => (await staff.rows('staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Support\s+Active\s+Not set up/);
    await staff.changeRole('new.agent@swx.test', 'compliance', 'Make new.agent@swx.test Compliance?');
    await p.getByText('Role changed.').waitFor();
    await staff.disable('new.agent@swx.test');
    await p.getByText('Account disabled; its sessions ended.').waitFor();
    await expect
      .poll(async () => (await staff.rows('staff-table')).join('\n'))
      .toMatch(/new\.agent@swx\.test\s+Compliance\s+Disabled/);
    // The server agrees: that account cannot sign in.
    const refused = await staffApi(app.server).call('signIn', { email: 'new.agent@swx.test', password });
    expect(refused.code).toBe(10005);
    // No button to disable yourself.
    expect(await staff.disableButton(ADMIN).count()).toBe(0);
    await expectAccessible(p, 'desktop /admin/staff');

    // The audit log: filters in the URL, staff by email, the chain check.
    const audit = new AuditPage(p);
    await audit.openScreen('Audit log');
    await audit.heading('Audit log').waitFor();
    await audit.filter({ Actor: ADMIN, Action: 'staff.' });
    await expect.poll(() => new URL(p.url()).searchParams.get('action')).toBe('staff.');
    const check = async () => {
      const rows = await audit.rows('audit-table');
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const row of rows) {
        expect(row).toContain(ADMIN);
        expect(row).toMatch(/\sstaff\.\w+/);
      }
      const text = rows.join('\n');
      for (const action of ['staff.created', 'staff.role_changed', 'staff.disabled', 'staff.totp_enrolled'])
        expect(text).toContain(action);
    };
    await expect
      .poll(async () => {
        const rows = await audit.rows('audit-table');
        return rows.length >= 4 && rows.every((r) => r.includes(ADMIN));
      })
      .toBe(true);
    await check();
    await p.reload();
    await audit.heading('Audit log').waitFor();
    expect(await audit.field('Action').inputValue()).toBe('staff.');
    await expect.poll(async () => (await audit.rows('audit-table')).length).toBeGreaterThanOrEqual(4);
    await check();
    await audit.checkChain();
    await expect.poll(() => audit.verdict.innerText()).toMatch(/^Chain intact: \d+ rows checked/);
    await expectAccessible(p, 'desktop /admin/audit');
    // The subject filter finds that customer's page view by this admin.
    await audit.clear();
    await audit.filter({ Subject: `user:${customer.userInfo.id}` });
    await expect.poll(async () => (await audit.rows('audit-table')).join('\n')).toContain('customer.viewed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a phone and in Arabic: deep link to the filtered audit log, no sideways scrolling, accessible', async () => {
    // A second sign-in of the same admin over the API, its session put in the tab.
    adminSession = await app.staff.session();
    const { page: p, errors, context } = await app.open('mobile', { staff: adminSession });
    const audit = new AuditPage(p);
    await p.goto('/admin/audit?action=staff.created');
    await audit.heading('Audit log').waitFor();
    await expect
      .poll(async () => {
        const rows = await audit.rows('audit-table');
        return rows.length > 0 && rows.every((r) => r.includes('staff.created'));
      })
      .toBe(true);
    await expectAccessible(p, 'mobile /admin/audit');
    const customers = new CustomersPage(p);
    await customers.gotoCustomer(customer.userInfo.id);
    await customers.heading(`Customer ${customer.userInfo.id}`).waitFor();
    await expectAccessible(p, 'mobile /admin/customers/:id');
    await screenshotTo(p, 'admin-customer-390-en');
    await customers.chooseLanguage('ar');
    await expect.poll(() => customers.dir()).toBe('rtl');
    await customers.openScreen('الموظفون');
    await customers.heading('الموظفون', 2).waitFor();
    await expect.poll(async () => (await customers.rows('staff-table')).join('\n')).toContain(ADMIN);
    await expectAccessible(p, 'mobile /admin/staff, Arabic');
    expect(errors).toEqual([]);
    await context.close();
  });
  it('on a phone the menu is one row, a Menu button opens every section by keyboard, Escape closes it; the desktop keeps its bar', async () => {
    const signedIn = adminSession;
    if (!signedIn) throw new Error('the admin has no session');
    const { page: p, errors, context } = await app.open('mobile', { staff: signedIn });
    const office = new CustomersPage(p);
    await p.goto('/admin/customers');
    await office.heading('Customers', 2).waitFor();
    const nav = p.getByRole('navigation', { name: 'Sections' });
    const menu = nav.getByRole('button', { name: 'Menu' });
    const links = nav.getByRole('link');
    // At 390 px the menu takes one row before the screen, not a row per few sections.
    const height = async () => (await nav.boundingBox())?.height ?? Number.POSITIVE_INFINITY;
    expect(await height()).toBeLessThanOrEqual(64);
    await screenshotTo(p, 'admin-menu-390-en-closed');
    // By keyboard: Tab to the button, Enter opens the list, Tab reaches every section in turn.
    const user = new KeyboardUser(p);
    await user.tabTo('Menu', { max: 10 });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await user.press('Enter');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    const sections = await links.allInnerTexts();
    expect(sections.length).toBeGreaterThanOrEqual(9);
    const reached: string[] = [];
    for (let i = 0; i <= sections.length; i++) {
      await user.press('Tab');
      if (!(await p.evaluate(() => Boolean(document.activeElement?.closest('nav'))))) break;
      reached.push((await user.focus()).name);
    }
    expect(reached).toEqual(sections);
    await screenshotTo(p, 'admin-menu-390-en-open');
    await expectAccessible(p, 'mobile /admin menu open');
    // Escape closes it and gives focus back to the button.
    await user.tabTo(sections[1] ?? '', { back: true, max: sections.length + 1 });
    await user.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    await user.expectFocusOn('Menu', 'BUTTON');
    expect(await links.first().isVisible()).toBe(false);
    // A section chosen from it opens, and the list closes.
    await user.press('Space');
    await user.tabTo('Staff', { max: sections.length });
    await user.press('Enter');
    await office.heading('Staff', 2).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // On the desktop the bar as it was: no button, every section shown.
    await p.setViewportSize({ width: 1366, height: 900 });
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(async () => (await links.allInnerTexts()).length).toBe(sections.length);
    await screenshotTo(p, 'admin-menu-1366-en');
    // In Arabic the same: one row on the phone, the button named in Arabic, mirrored.
    await p.setViewportSize({ width: 390, height: 844 });
    await office.chooseLanguage('ar');
    await expect.poll(() => office.dir()).toBe('rtl');
    const arabic = p.getByRole('navigation', { name: 'الأقسام' });
    expect((await arabic.boundingBox())?.height).toBeLessThanOrEqual(64);
    await arabic.getByRole('button', { name: 'القائمة' }).click();
    await screenshotTo(p, 'admin-menu-390-ar-open');
    await expectAccessible(p, 'mobile /admin menu open, Arabic');
    await p.setViewportSize({ width: 1366, height: 900 });
    await expect
      .poll(async () => (await arabic.getByRole('link').allInnerTexts()).length)
      .toBe(sections.length);
    await screenshotTo(p, 'admin-menu-1366-ar');
    expect(errors).toEqual([]);
    await context.close();
  });
  it('the KYC review queue: the claimant by name in the list and on the item, a deep link that survives a reload', async () => {
    // The admin's session of the phone test (a third authenticator sign-in would fall outside the code window).
    const signedIn = adminSession;
    if (!signedIn) throw new Error('the admin has no session');
    // A compliance officer, made by the admin, claims a customer's verification.
    const created = await staffApi(app.server, signedIn).ok('createStaff', {
      email: 'reviewer.kyc@swx.test',
      role: 'compliance',
    });
    const reviewer = staffApi(
      app.server,
      await enrolStaffByApi(app.server.baseUrl, 'reviewer.kyc@swx.test', created.oneTimePassword),
    );
    const applicant = await app.customer('grace.hopper@example.com');
    const submitted = await customerApi(app.server, applicant).call('identification', {
      firstName: 'Grace',
      lastName: 'Hopper',
      birthdate: '1986-12-09',
      sex: 'female',
      country: 'US',
      address: '1 Navy Yard, Arlington',
      phoneCode: '+1',
      phone: '2025550100',
      documentType: 'passport',
      photos: await uploadKycPhotos(app.server.baseUrl, applicant.token),
    });
    expect(submitted.code).toBe(20001);
    const queue = await reviewer.ok('kycQueue');
    const id = queue.find((q) => q.userId === applicant.userInfo.id)?.id ?? 0;
    expect((await reviewer.call('claimKyc', { id })).code).toBe(200);

    // The admin reads the queue and the item; only compliance decides.
    const { page: p, errors, context } = await app.open('desktop', { staff: signedIn });
    const review = new KycReviewPage(p);
    await review.gotoQueue();
    await expect
      .poll(async () => (await review.rows('kyc-table')).join('\n'))
      .toMatch(/grace\.hopper@example\.com[\s\S]*reviewer\.kyc@swx\.test/);
    await expectAccessible(p, 'desktop /admin/kyc');
    await review.review('grace.hopper@example.com');
    await review.heading(`Verification ${id}`).waitFor();
    expect(new URL(p.url()).pathname).toBe(`/admin/kyc/${id}`);
    const status = () => review.reviewStatus.innerText();
    expect(await status()).toMatch(/reviewer\.kyc@swx\.test, until/);
    await p.getByText('Only the compliance role approves or rejects.').waitFor();
    expect(await review.approveButton.count()).toBe(0);
    await expectAccessible(p, 'desktop /admin/kyc/:id');
    // The reviewer lets it go: after a reload of the same address, nobody holds it.
    expect((await reviewer.call('releaseKyc', { id })).code).toBe(200);
    await p.reload();
    await review.heading(`Verification ${id}`).waitFor();
    await expect.poll(status).toMatch(/Reviewer\s+Nobody/);
    expect(errors).toEqual([]);
    await context.close();
  });
  it('the invite programme: terms in per cent checked per field and saved, a link searched and frozen with a reason in a dialog, payouts; phone and Arabic', async () => {
    adminSession ??= await app.staff.session();
    const signedIn = adminSession;
    // A friend registers with the inviter's code: one link, inviter → friend.
    const inviter = await app.customer('ines.inviter@example.com');
    const { code } = await customerApi(app.server, inviter).ok('getMyInvite');
    const anonymous = customerApi(app.server);
    await anonymous.ok('sendCode', { email: 'fred.friend@example.com', purpose: 'register' });
    await anonymous.ok('register', {
      userName: 'fred.friend@example.com',
      password: 'long enough pw',
      password2: 'long enough pw',
      code: await app.inbox.codeFor('fred.friend@example.com'),
      inviteCode: code,
    });

    const { page: p, errors, context } = await app.open('desktop', { staff: signedIn, width: 1280 });
    const office = new CustomersPage(p);
    await p.goto('/admin/customers');
    await office.openScreen('Invites');
    await office.heading('Invite programme settings', 2).waitFor();
    const terms = p.getByTestId('invite-terms');
    await expect.poll(() => terms.innerText()).toMatch(/20 % \(2,000 basis points\)/);
    expect(await terms.innerText()).toMatch(/100\.00 USDT[\s\S]*On: rewards accrue/);
    await expectAccessible(p, 'desktop /admin/invites');
    await screenshotTo(p, 'admin-invites-settings-1280-en');
    // Checked per field before anything is sent; the first field to fix takes the focus.
    const form = p.getByRole('form', { name: 'Change the terms' });
    const share = form.getByLabel("Inviter's share (%)");
    const cap = form.getByLabel('Daily cap per inviter (USDT)');
    await share.fill('120');
    await cap.fill('-5');
    await form.getByRole('button', { name: 'Save the terms' }).click();
    await form.getByText('Enter a percentage from 0 to 100 with at most two decimals.').waitFor();
    await form.getByText('Enter an amount of USDT above zero with at most 6 decimals.').waitFor();
    await expect.poll(() => share.evaluate((e) => e === document.activeElement)).toBe(true);
    await screenshotTo(p, 'admin-invites-settings-errors-1280-en');
    await share.fill('15.5');
    await form.getByText('That is 1,550 basis points.').waitFor();
    await cap.fill('250');
    await form.getByRole('button', { name: 'Save the terms' }).click();
    await p.getByText('Terms saved. They apply from the next day and are shown above.').waitFor();
    await expect.poll(() => terms.innerText()).toMatch(/15\.5 % \(1,550 basis points\)[\s\S]*250\.00 USDT/);
    const staff = staffApi(app.server, signedIn);
    const audited = await staff.ok('auditLog', { action: 'invites.settings.updated' });
    expect(audited.rows[0]?.data).toContain('"shareBps":1550');

    // Links: found by the inviter's email; a freeze needs a reason, asked in a dialog.
    await p
      .getByRole('navigation', { name: 'Invite programme' })
      .getByRole('link', { name: 'Links' })
      .click();
    await office.heading('Invite links', 2).waitFor();
    await p.getByLabel('Inviter or friend: id, username or email').fill('ines.inviter@example.com');
    await p.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(async () => (await office.rows('invite-links')).join('\n'))
      .toMatch(
        /ines\.inviter@example\.com[\s\S]*fred\.friend@example\.com[\s\S]*Registered[\s\S]*None[\s\S]*Nothing yet[\s\S]*No/,
      );
    expect(new URL(p.url()).search).toBe('?q=ines.inviter%40example.com');
    await expectAccessible(p, 'desktop /admin/invites/links');
    await screenshotTo(p, 'admin-invites-links-1280-en');
    await p.getByRole('button', { name: /^Freeze link \d+: ines\.inviter@example\.com/ }).click();
    const dialog = p.getByRole('dialog', { name: /^Freeze link \d+\?$/ });
    await dialog.getByRole('button', { name: 'Freeze the link' }).click();
    await dialog.getByText('Give a reason of at least 3 characters.').waitFor();
    await expectAccessible(p, 'desktop /admin/invites/links freeze dialog');
    await screenshotTo(p, 'admin-invites-freeze-1280-en');
    await dialog.getByLabel('Reason (kept in the audit log)').fill('Same household, checked by phone');
    await dialog.getByRole('button', { name: 'Freeze the link' }).click();
    await p.getByText(/^Link \d+ frozen\.$/).waitFor();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect
      .poll(async () => (await office.rows('invite-links')).join('\n'))
      .toContain('Frozen: Same household, checked by phone');
    // The focus is back on the row's button, which now unfreezes.
    await expect
      .poll(() => p.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^Unfreeze link \d+: ines\.inviter@example\.com/);
    expect((await staff.ok('auditLog', { action: 'invites.link.frozen' })).rows).toHaveLength(1);

    // Payouts: none before any reward was paid.
    await p
      .getByRole('navigation', { name: 'Invite programme' })
      .getByRole('link', { name: 'Payouts' })
      .click();
    await office.heading('Invite payouts', 2).waitFor();
    await p.getByText('No payout yet.').waitFor();
    await screenshotTo(p, 'admin-invites-payouts-1280-en');
    expect(errors).toEqual([]);
    await context.close();

    // On a phone, in English then Arabic: the same screens, nothing scrolls sideways.
    const phone = await app.open('mobile', { staff: signedIn });
    const small = new CustomersPage(phone.page);
    await phone.page.goto('/admin/invites/links?q=fred.friend%40example.com');
    await expect
      .poll(async () => (await small.rows('invite-links')).join('\n'))
      .toContain('fred.friend@example.com');
    await expectAccessible(phone.page, 'mobile /admin/invites/links');
    await screenshotTo(phone.page, 'admin-invites-links-390-en');
    await phone.page.goto('/admin/invites');
    await small.heading('Invite programme settings', 2).waitFor();
    await expectAccessible(phone.page, 'mobile /admin/invites');
    await screenshotTo(phone.page, 'admin-invites-settings-390-en');
    await small.chooseLanguage('ar');
    await expect.poll(() => small.dir()).toBe('rtl');
    await small.heading('إعدادات برنامج الدعوات', 2).waitFor();
    await expectAccessible(phone.page, 'mobile /admin/invites, Arabic');
    await screenshotTo(phone.page, 'admin-invites-settings-390-ar');
    await phone.page.goto('/admin/invites/links');
    await expect.poll(async () => (await small.rows('invite-links')).join('\n')).toContain('مجمّد');
    await expectAccessible(phone.page, 'mobile /admin/invites/links, Arabic');
    await screenshotTo(phone.page, 'admin-invites-links-390-ar');
    expect(phone.errors).toEqual([]);
    await phone.context.close();

    // Finance reads the terms and the links; only admins change or freeze them.
    const created = await staff.ok('createStaff', { email: 'finance.invites@swx.test', role: 'finance' });
    const finance = await enrolStaffByApi(
      app.server.baseUrl,
      'finance.invites@swx.test',
      created.oneTimePassword,
    );
    const reader = await app.open('desktop', { staff: finance, width: 1280 });
    await reader.page.goto('/admin/invites');
    await reader.page.getByText('Only admins change these terms; you can read them.').waitFor();
    await expect.poll(() => reader.page.getByTestId('invite-terms').innerText()).toContain('15.5 %');
    expect(await reader.page.getByRole('form', { name: 'Change the terms' }).count()).toBe(0);
    await reader.page.goto('/admin/invites/links');
    await reader.page.getByText('Only admins freeze or unfreeze a link.').waitFor();
    await reader.page.getByTestId('invite-links').locator('tbody tr').first().waitFor();
    expect(await reader.page.getByRole('button', { name: /freeze link/i }).count()).toBe(0);
    expect(reader.errors).toEqual([]);
    await reader.context.close();
  }, 180_000);

  it('the help centre: staff publish an FAQ article in English and German, customers find it by search in each language', async () => {
    adminSession ??= await app.staff.session();
    const { page: p, errors, context } = await app.open('desktop', { staff: adminSession, width: 1280 });
    const editor = new HelpEditorPage(p);
    await p.goto('/admin/help');
    await editor.heading('Help centre', 2).waitFor();
    await editor.create({
      slug: 'book-badge',
      title: 'Which book am I looking at?',
      body: '## The badge\n\nEvery money screen carries a **badge** naming its book: lighthouse.',
    });
    await p
      .getByTestId('help-missing')
      .getByText(/Missing languages: .*Deutsch/)
      .waitFor();
    await editor.saveDraft(
      'Deutsch',
      'Welches Buch sehe ich?',
      'Jede Geldseite trägt ein **Abzeichen**: Leuchtturm.',
    );
    await editor.publish();
    await expect.poll(() => p.getByTestId('help-status').innerText()).toMatch(/Published/);
    expect((await editor.rows('help-revisions')).join('\n')).toMatch(
      /Published · Deutsch[\s\S]*Draft saved · Deutsch/,
    );
    await editor.saveDraft('English', 'Which book am I looking at?', '**Preview** of a [link](/help).');
    await p.getByTestId('help-preview').getByRole('link', { name: 'link' }).waitFor();
    await expectAccessible(p, 'desktop /admin/help/:id');
    await screenshotTo(p, 'help-admin-editor-1280-en');
    expect(errors).toEqual([]);
    await context.close();

    // Customers find it in their language: German words in German, English words in English.
    const german = await app.open('desktop', { language: 'de', width: 1280, quiet: true });
    const deHelp = new HelpCentrePage(german.page);
    await deHelp.goto();
    await deHelp.find('Leuchtturm', 'Welches Buch sehe ich?');
    expect(await deHelp.results.innerText()).not.toContain('Auf Englisch angezeigt');
    await german.context.close();
    const english = await app.open('desktop', { width: 1280, quiet: true });
    const enHelp = new HelpCentrePage(english.page);
    await enHelp.goto();
    await enHelp.find('lighthouse', 'Which book am I looking at?');
    await expectAccessible(english.page, 'desktop /help, search');
    await screenshotTo(english.page, 'help-home-1280-en');
    await english.page.getByRole('link', { name: 'Which book am I looking at?' }).click();
    await english.page.getByText(/Last updated/).waitFor();
    await screenshotTo(english.page, 'help-article-1280-en');
    expect(english.errors).toEqual([]);
    await english.context.close();

    // In Arabic, on a phone: no Arabic text yet, so the English one, marked as shown in English.
    const arabic = await app.open('mobile', { language: 'ar', quiet: true });
    const arHelp = new HelpCentrePage(arabic.page);
    await arHelp.goto();
    const hit = await arHelp.find('lighthouse', 'Which book am I looking at?');
    await hit.getByText('معروض بالإنجليزية').waitFor();
    await expectAccessible(arabic.page, 'mobile /help, Arabic');
    await screenshotTo(arabic.page, 'help-home-390-ar');
    // Opened by its address: the page the server draws with the article, then the app takes it over.
    await arabic.page.goto((await hit.getByRole('link').getAttribute('href')) ?? '');
    await arabic.page.getByText('هذا النص غير مكتوب بلغتك بعد؛ وهو معروض بالإنجليزية.').waitFor();
    await screenshotTo(arabic.page, 'help-article-390-ar');
    expect(arabic.errors).toEqual([]);
    await arabic.context.close();
  }, 240_000);
});
