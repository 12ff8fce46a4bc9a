import { ADDRESS_LOCK_HOURS } from '@swx/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { createTestContext, type TestContext, type TestCustomer } from '../../test/context.ts';
import { type TestWallet, testWallet } from '../../test/wallet.ts';
import { base32Decode, totpCode } from '../identity/identity.totp.ts';

const LOCK_MS = ADDRESS_LOCK_HOURS * 3_600_000;
const client = { ip: '10.8.8.8', userAgent: 'address-lock-test', language: 'en' as const };

/**
 * The withdrawal address lock (10041 while it runs): an address waits ADDRESS_LOCK_HOURS from its
 * own addition, and every address waits again from a password change or two-step removal. Opening
 * the account starts no wait: it is no security change.
 */
describe(`the withdrawal address lock, ${TEST_DB}`, () => {
  let t: TestDatabase;
  let ctx: TestContext;
  let w: TestWallet;
  // The identity's clock (TOTP codes): moved on so each code is of a new 30-second step.
  let clock = Date.now();
  const now = () => clock;

  beforeAll(async () => {
    t = await openTestDatabase();
    ctx = await createTestContext(t.db, { now });
    w = testWallet(ctx, { now });
  }, 60_000);
  afterAll(() => t?.close());

  let n = 0;
  const add = (c: TestCustomer) =>
    w.wallet.withdrawals.addAddress('live', c.id, {
      network: 'USDT-EVM',
      address: `0x${String(++n).padStart(40, '7')}`,
      label: '',
    });
  const usableFrom = async (c: TestCustomer, id: number) =>
    Date.parse(
      (await w.wallet.withdrawals.addresses('live', c.id)).find((a) => a.id === id)?.usableFrom ?? '',
    );
  /** The account opened, and its addresses added, `hours` earlier (the database's clock is the rows'). */
  const aged = (c: TestCustomer, hours: number) =>
    Promise.all([
      t.db.query(
        `UPDATE users SET created_at = created_at - make_interval(hours => $2),
           password_changed_at = password_changed_at - make_interval(hours => $2) WHERE id = $1`,
        [c.id, hours],
      ),
      t.db.query(
        'UPDATE wallet_addresses SET created_at = created_at - make_interval(hours => $2) WHERE user_id = $1',
        [c.id, hours],
      ),
    ]);

  it("counts a new address's wait from its addition, for a new account as for an old one", async () => {
    const fresh = await ctx.customer();
    // Opening the account is no security change.
    expect(await ctx.identity.securityChangedAt(fresh.id)).toBeNull();
    const first = await add(fresh);
    expect(Date.parse(first.usableFrom) - Date.parse(first.createdAt)).toBe(LOCK_MS);

    const old = await ctx.customer();
    await aged(old, 24 * 400);
    expect(await ctx.identity.securityChangedAt(old.id)).toBeNull();
    const added = await add(old);
    expect(Date.parse(added.usableFrom) - Date.parse(added.createdAt)).toBe(LOCK_MS);
    expect(await usableFrom(old, added.id)).toBe(Date.parse(added.usableFrom));
  });

  it('makes every address wait again from a two-step removal and from a password change', async () => {
    const c = await ctx.customer();
    const address = await add(c);
    // Opened two days ago, the address added a day and an hour ago: usable now.
    await aged(c, 48);
    await t.db.query("UPDATE wallet_addresses SET created_at = now() - interval '25 hours' WHERE id = $1", [
      address.id,
    ]);
    expect(await usableFrom(c, address.id)).toBeLessThan(Date.now());

    // Turning two-step sign-in on weakens nothing; turning it off does.
    const session = await ctx.sessionOf(c);
    const { secret } = await ctx.identity.setupTotp(session);
    await ctx.identity.enableTotp(session, { code: totpCode(base32Decode(secret), now()) }, client);
    expect(await usableFrom(c, address.id)).toBeLessThan(Date.now());
    clock += 31_000;
    const beforeRemoval = Date.now();
    await ctx.identity.disableTotp(
      session,
      { password: c.password, code: totpCode(base32Decode(secret), now()) },
      client,
    );
    const removal = await usableFrom(c, address.id);
    expect(removal - LOCK_MS).toBeGreaterThanOrEqual(beforeRemoval - 1_000);
    expect(removal - LOCK_MS).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(Date.parse((await ctx.identity.securityChangedAt(c.id)) ?? '')).toBe(removal - LOCK_MS);

    // Both waits over; then a password change starts the wait of every address again.
    await t.db.query(
      "UPDATE users SET two_step_removed_at = two_step_removed_at - interval '25 hours' WHERE id = $1",
      [c.id],
    );
    expect(await usableFrom(c, address.id)).toBeLessThan(Date.now());
    const beforeChange = Date.now();
    await ctx.identity.changePassword(
      session,
      { oldPassword: c.password, password: 'another passphrase', password2: 'another passphrase' },
      client,
    );
    const change = await usableFrom(c, address.id);
    expect(change - LOCK_MS).toBeGreaterThanOrEqual(beforeChange - 1_000);
    expect(change - LOCK_MS).toBeLessThanOrEqual(Date.now() + 1_000);
  });
});
