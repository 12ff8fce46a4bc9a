import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../tests/support/ledger-sound.ts';
import { DEMO_FUNDING_MINOR } from '../modules/ledger/ledger.service.ts';
import { createTestContext, type TestContext } from './context.ts';

/** The builders make what the product makes, and the soundness check fails on an unsound ledger. */
describe(`the test context on ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db);
  });
  afterAll(() => t.close());

  it('registers a customer through identity: a session, both books, the demo funding, the welcome notice, a live deposit', async () => {
    const customer = await ctx.customer({ name: 'builder_made', language: 'de', live: 2_500_000n });
    expect(customer).toMatchObject({
      userName: 'builder_made',
      email: expect.stringMatching(/@example\.test$/),
    });
    expect((await ctx.sessionOf(customer)).userId).toBe(customer.id);
    const usdt = async (book: 'demo' | 'live') =>
      (await ctx.ledger.balances(book, customer.id)).find((b) => b.asset === 'USDT')?.balance;
    expect(await usdt('demo')).toBe(DEMO_FUNDING_MINOR);
    expect(await usdt('live')).toBe(2_500_000n);
    const [welcome] = await ctx.notices.list(customer.id, 'de');
    expect(welcome?.noticeContent).toContain('builder_made');
    // The password the builder chose logs in.
    const login = await ctx.identity.login(
      { userName: 'builder_made', password: customer.password },
      { ip: '192.0.2.1', userAgent: 'test', language: 'en' },
    );
    expect('token' in login).toBe(true);
    await expectLedgerSound(ctx);
  });

  it('creates and enrols staff of a role through the staff service', async () => {
    const reviewer = await ctx.staffMember('compliance');
    expect(reviewer.role).toBe('compliance');
    expect(await ctx.staff.resolveSession(reviewer.token)).toMatchObject({
      staffId: reviewer.id,
      role: 'compliance',
    });
    expect(await ctx.audit.verify()).toMatchObject({ ok: true });
  });

  it('the soundness check fails on a balance that differs from its postings', async () => {
    const customer = await ctx.customer();
    const wallet = await ctx.ledger.walletAccount('demo', customer.id, 'USDT');
    await t.db.query('UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1', [wallet]);
    await expect(expectLedgerSound(ctx)).rejects.toThrow(/balances that differ from their postings/);
    await t.db.query('UPDATE ledger_accounts SET balance = balance - 1 WHERE id = $1', [wallet]);
    await expectLedgerSound(ctx);
  });
});
