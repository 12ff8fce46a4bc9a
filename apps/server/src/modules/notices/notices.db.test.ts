import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createTestContext, type TestContext } from '../../test/context.ts';
import { NoticesService, renderNotice } from './notices.service.ts';

describe(`notices on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let notices: NoticesService;
  beforeAll(async () => {
    t = await openTestDatabase();
    notices = new NoticesService(t.db);
    ctx = await createTestContext(t.db, { notices });
  });
  afterAll(() => t.close());

  /** A customer registered in English (their welcome notice comes first). */
  async function customer(name: string): Promise<number> {
    return (await ctx.customer({ name })).id;
  }

  it('dates a notice by the service clock (a sandbox clock days ahead), as the product that sends it', async () => {
    const user = await customer('notice.clocked');
    const ahead = Date.parse('2031-03-04T05:06:07.000Z');
    const clocked = new NoticesService(t.db, () => ahead);
    await clocked.notify(user, 'en', 'position_stop_loss', {
      order: 'SWX000000008',
      code: 'BTCUSDT',
      price: '90000.00',
      profit: '1',
      book: 'live',
    });
    const [latest] = await notices.list(user, 'en');
    expect(latest?.noticeContent).toContain('SWX000000008');
    expect(new Date(latest?.createdAt ?? '').toISOString()).toBe('2031-03-04T05:06:07.000Z');
  });

  it('renders a notice in the language of each read, not the language it was created in', async () => {
    const user = await customer('notice.reader');
    await notices.notify(user, 'en', 'position_stop_loss', {
      order: 'SWX000000007',
      code: 'BTCUSDT',
      price: '90000.00',
      profit: '-2.770000',
      book: 'live',
    });
    const [english] = await notices.list(user, 'en');
    expect(english?.noticeContent).toBe(
      'Position SWX000000007 (BTCUSDT) reached its stop loss and closed at 90000.00. Result: -2.77 USDT (live account).',
    );
    const [french] = await notices.list(user, 'fr');
    expect(french?.noticeContent).toBe(
      'La position SWX000000007 (BTCUSDT) a atteint son stop loss et a été clôturée à 90000.00. Résultat : -2,77 USDT (compte réel).',
    );
    const [arabic] = await notices.list(user, 'ar', 0);
    expect(arabic?.noticeContent).toContain('حساب الحقيقي');
    expect(arabic?.id).toBe(english?.id);
  });

  it('keeps a notice written before parameters were stored readable as it was written', async () => {
    const user = await customer('notice.legacy');
    await t.db.query("INSERT INTO notices (user_id, kind, notice_content) VALUES ($1, 'welcome', $2)", [
      user,
      'Bienvenue sur SWX, notice.legacy.',
    ]);
    const [legacy] = await notices.list(user, 'en');
    expect(legacy?.noticeContent).toBe('Bienvenue sur SWX, notice.legacy.');
  });

  it("takes a kind of two to sixty of a-z, '_' and '.', and no other", async () => {
    const user = await customer('notice.kinds');
    const write = (kind: string) =>
      t.db.query("INSERT INTO notices (user_id, kind, notice_content) VALUES ($1, $2, 'x')", [user, kind]);
    for (const kind of ['ab', 'earn.income_x', 'z'.repeat(60)]) await write(kind);
    for (const kind of [
      '',
      'a',
      'z'.repeat(61),
      'Earn_income',
      'earn-income',
      'earn income',
      'earné',
      'earn1',
    ])
      await expect(write(kind), kind).rejects.toMatchObject({ code: '23514' });
  });

  it('fills a parameter as data, and names a book in the reader language', () => {
    expect(renderNotice('welcome', 'de', { name: '{{name}}' })).toContain('Willkommen bei SWX, {{name}}.');
    expect(
      renderNotice('position_expiry', 'ja', { book: 'demo', order: 'A', code: 'B', price: '1', profit: '0' }),
    ).toContain('（デモ 口座）');
  });
});
