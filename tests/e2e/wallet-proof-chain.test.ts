import { describe, expect, it } from 'vitest';
import type { Session } from '../support/accounts.ts';
import { customerApi, staffApi } from '../support/api.ts';
import { expectAccessible } from '../support/browser.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { type StaffSessionData, useApp } from '../support/e2e.ts';
import { pngImage } from '../support/images.ts';
import { DepositReviewPage } from '../support/pages/index.ts';
import { uploadedId } from '../support/uploads.ts';

/**
 * The deposit proof review in the back office, on a development chain (anvil, the test token):
 * the page shows what the chain says of the proof's transaction, and approval is impossible (the
 * button disabled with the reason beside it) when the chain does not confirm the deposit.
 */
let chain: TestChain | undefined;
const app = useApp({
  env: async () => {
    chain = await startTestChain();
    // No watcher pass: it would record the transfer itself, and a proof of it is then refused (10042).
    return { ...chain.env, JOBS: 'off' };
  },
  after: async () => {
    await chain?.close();
  },
  staff: { email: 'chain.finance@swx.test', role: 'finance' },
});
const USDT = (n: number) => BigInt(n) * 1_000_000n;
/** One staff session for the file (each sign-in spends an authenticator step). */
let staffSession: StaffSessionData | undefined;
const staff = async () => {
  staffSession ??= await app.staff.session();
  return staffSession;
};

async function declare(customer: Session, txHash: string, amount: string): Promise<number> {
  const live = customerApi(app.server, customer, { book: 'live' });
  const { address } = await live.ok('getDepositAddress', { network: 'USDT-EVM' });
  const proof = await uploadedId(app.server.baseUrl, customer.token, 'deposit_proof', await pngImage());
  const declared = await live.ok('recharge', {
    network: 'USDT-EVM',
    amount,
    txHash,
    lastSix: txHash.slice(-6),
    proof,
    address,
  });
  return declared.id;
}

describe('deposit proofs against the watched chain, in the back office', () => {
  it('a made-up transaction hash: the page says the chain has no such transaction, and approval is disabled', async () => {
    const customer = await app.customer('made.up@example.com');
    const id = await declare(customer, `0x${'9e1f'.repeat(16)}`, '5000');
    const { page: p, errors } = await app.open('desktop', { staff: await staff() });
    const review = new DepositReviewPage(p);
    await p.goto(`/admin/deposits/${id}`);
    await p.getByText('Not found: no mined transaction has this hash').waitFor();
    await review.claim();
    const reason = p.getByTestId('approval-blocked');
    await reason.waitFor();
    expect(await reason.innerText()).toBe(
      'Approval is not possible: the blockchain does not confirm this deposit. Reject it with the reason.',
    );
    expect(await review.approveButton.isDisabled()).toBe(true);
    expect(await review.approveButton.getAttribute('aria-describedby')).toBe('approval-blocked');
    await expectAccessible(p, 'desktop /admin/deposits/:id chain disagrees');
    // The server refuses it too (the claim above is this staff member's), naming what the chain says.
    const finance = staffApi(app.server, await staff());
    expect(await finance.call('approveDeposit', { id })).toMatchObject({
      code: 10047,
      data: { verdict: 'not_found' },
    });
    expect(errors).toEqual([]);
  }, 180_000);

  it('a real transfer to the customer: the page shows the amount and confirmations, and approval credits it held', async () => {
    const customer = await app.customer('real.transfer@example.com');
    const live = customerApi(app.server, customer, { book: 'live' });
    const { address } = await live.ok('getDepositAddress', { network: 'USDT-EVM' });
    if (!chain) throw new Error('no chain');
    const hash = await chain.dev.send({ to: address as `0x${string}`, asset: 'USDT', amount: USDT(160) });
    const id = await declare(customer, hash, '160');
    const { page: p, errors } = await app.open('desktop', { staff: await staff() });
    const review = new DepositReviewPage(p);
    await p.goto(`/admin/deposits/${id}`);
    await p
      .getByText("Found: a mined transfer of at least the declared amount to the customer's deposit address")
      .waitFor();
    expect(await p.getByTestId('deposit-facts').innerText()).toContain('160.00 USDT');
    await review.claim();
    expect(await p.getByTestId('approval-blocked').count()).toBe(0);
    await review.approve();
    await p
      .getByText(
        "Approved; the customer was notified and the amount is credited, at once or, for a proof checked on chain, at the network's confirmations.",
      )
      .waitFor();
    const [deposit] = await live.ok('listRecharge');
    expect(deposit).toMatchObject({ id, source: 'proof' });
    expect(['confirming', 'credited', 'available']).toContain(deposit?.state);
    expect(errors).toEqual([]);
  }, 180_000);
});
