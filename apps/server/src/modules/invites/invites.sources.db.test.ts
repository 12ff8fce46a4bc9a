import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { DEV_ACCOUNTS } from '../../platform/chain/accounts.ts';
import type { Hex } from '../../platform/chain.ts';
import { addDays, utcDay } from '../products/figures.ts';
import { type TestInvites, testInvites } from './invites.testing.ts';

/**
 * The same-address rule on a real development chain: a friend whose deposit the watcher saw sent
 * from an address the inviter named for withdrawals is refused (`same_address`), the deposit's
 * sender read from the wallet's row (the faucet sends the chain's test deposits).
 */
const clock = { now: Date.parse('2027-05-01T00:05:00Z') };
let t: TestDatabase;
let chain: TestChain;
let s: TestInvites;

beforeAll(async () => {
  [t, chain] = await Promise.all([openTestDatabase(), startTestChain()]);
  s = await testInvites(t.db, clock, chain.chain);
}, 120_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

describe(`invites' same deposit source, ${TEST_DB}`, () => {
  it("refuses the reward of a friend funded on chain from the inviter's withdrawal address", async () => {
    const sender = DEV_ACCOUNTS.faucet.address;
    const inviter = await s.register(undefined);
    await s.wallet.wallet.withdrawals.addAddress('live', inviter.id, {
      network: 'USDT-EVM',
      address: sender,
      label: 'my own wallet',
    });
    const friend = await s.register((await s.invites.codeOf(inviter.id)).code);
    await s.loans.verify(friend.id);
    clock.now += 3_600_000;
    const to = (await s.wallet.wallet.deposits.address('live', friend.id, 'USDT-EVM')).address as Hex;
    await chain.dev.send({ to, asset: 'USDT', amount: 200_000_000n });
    // Credited at 12 confirmations, withdrawable (and tradable) at 24.
    await chain.dev.mine(12);
    await s.wallet.wallet.deposits.watch();
    await chain.dev.mine(12);
    await s.wallet.wallet.deposits.watch();
    const [row] = await t.db.query<{ state: string; sender: string | null }>(
      'SELECT state, sender FROM wallet_deposits WHERE user_id = $1',
      [friend.id],
    );
    expect(row).toEqual({ state: 'available', sender });
    // The friend trades from the deposit: they qualify today, and the day's reward is refused.
    await s.trade(friend.id, 1_000_000n, `source:${friend.id}`);
    clock.now = Date.parse(`${addDays(utcDay(clock.now), 1)}T00:05:00Z`);
    expect(await s.invites.runDaily(s.invites.dueDay())).toEqual([]);
    expect((await s.invites.rewards(inviter.id, undefined)).map((r) => [r.state, r.reason])).toEqual([
      ['refused', 'same_address'],
    ]);
    expect((await s.invites.links({ search: String(friend.id) }))[0]?.flags).toEqual(['same_address']);
    await expectLedgerSound(s.ctx);
  }, 60_000);
});
