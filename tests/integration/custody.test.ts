import { ownershipMessage } from '@swx/contract';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressesOf, signPersonalMessage } from '../../apps/web/src/features/custody/keys.ts';
import { newMnemonic } from '../../apps/web/src/features/custody/words.ts';
import { registerByApi, type Session } from '../support/accounts.ts';
import { customerApi } from '../support/api.ts';
import { startTestChain, type TestChain } from '../support/chain.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { until } from '../support/until.ts';

/**
 * The self-custody wallet's two server calls (DESIGN §2 rule 1): a withdrawal address proved the
 * customer's own by an EIP-191 signature of `ownershipMessage`, and the chain balance of a public
 * address. The server only ever sees addresses and signatures.
 */
describe('self-custody wallet, on a development chain', () => {
  let chain: TestChain;
  let server: RunningServer;
  let inbox: Inbox;
  let alice: Session;
  let bob: Session;
  const live = (session: Session) => customerApi(server, session, { book: 'live', language: 'en' });

  useServer(
    {
      env: async () => {
        chain = await startTestChain();
        return chain.env;
      },
      after: async () => chain?.close(),
    },
    (s) => ({ server, inbox } = s),
  );
  beforeAll(async () => {
    alice = await registerByApi(server, inbox, 'alice.custody@example.com');
    bob = await registerByApi(server, inbox, 'bob.custody@example.com');
  });

  const sign = (key: `0x${string}`, address: string, customerId: number) =>
    privateKeyToAccount(key).signMessage({ message: ownershipMessage(address, customerId) });

  it('adds an address signed by its own key as owned; one without a signature is not', async () => {
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    const signature = await sign(key, address, alice.userInfo.id);
    const added = await live(alice).ok('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address,
      label: 'My self-custody wallet',
      signature,
    });
    // Addresses travel checksummed (EIP-55), as viem gives them.
    expect(added).toMatchObject({ address, owned: true });
    const plain = privateKeyToAccount(generatePrivateKey()).address;
    expect(
      await live(alice).ok('addWithdrawalAddress', { network: 'USDT-EVM', address: plain, label: 'Other' }),
    ).toMatchObject({ owned: false });
    const book = await live(alice).ok('listWithdrawalAddresses');
    expect(book.find((a) => a.address === address)?.owned).toBe(true);
    expect(book.find((a) => a.address === plain)?.owned).toBe(false);
  });

  it("accepts the browser wallet's own signature (its words, m/44'/60'/0'/0/0)", async () => {
    const words = newMnemonic();
    const { evm } = addressesOf(words);
    const signature = signPersonalMessage(words, ownershipMessage(evm, bob.userInfo.id));
    const added = await live(bob).ok('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address: evm,
      label: '',
      signature,
    });
    expect(added.owned).toBe(true);
  });

  it('refuses a signature by another key with 10026 on signature (not_owner), and adds nothing', async () => {
    const { address } = privateKeyToAccount(generatePrivateKey());
    const signature = await sign(generatePrivateKey(), address, alice.userInfo.id);
    const answer = await live(alice).call('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address,
      label: '',
      signature,
    });
    expect(answer.code).toBe(10026);
    expect(answer.data).toEqual([{ path: 'signature', issue: 'not_owner' }]);
    const book = await live(alice).ok('listWithdrawalAddresses');
    expect(book.some((a) => a.address === address.toLowerCase())).toBe(false);
  });

  it("refuses a signature of another customer's message, and one for another address", async () => {
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    // Bob's proof replayed by Alice.
    const bobs = await sign(key, address, bob.userInfo.id);
    const replayed = await live(alice).call('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address,
      label: '',
      signature: bobs,
    });
    expect(replayed.code).toBe(10026);
    expect(replayed.data).toEqual([{ path: 'signature', issue: 'not_owner' }]);
    // A signature of the message about another address.
    const other = privateKeyToAccount(generatePrivateKey()).address;
    const moved = await live(alice).call('addWithdrawalAddress', {
      network: 'USDT-EVM',
      address: other,
      label: '',
      signature: await sign(key, address, alice.userInfo.id),
    });
    expect(moved.code).toBe(10026);
  });

  it('answers 10043 in the demo book, and 401 without a session', async () => {
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    const signature = await sign(key, address, alice.userInfo.id);
    const demo = customerApi(server, alice, { book: 'demo' });
    expect(
      (await demo.call('addWithdrawalAddress', { network: 'USDT-EVM', address, label: '', signature })).code,
    ).toBe(10043);
    const anonymous = customerApi(server);
    expect((await anonymous.call('chainBalance', { address })).code).toBe(401);
    expect(
      (await anonymous.call('addWithdrawalAddress', { network: 'USDT-EVM', address, label: '', signature }))
        .code,
    ).toBe(401);
  });

  it('reads what the chain holds at a public address: the amounts sent, at a block', async () => {
    const { address } = privateKeyToAccount(generatePrivateKey());
    const before = await live(alice).ok('chainBalance', { address });
    expect(before.available).toBe(true);
    expect(before.balances.map((b) => [b.asset, Number(b.amount)])).toEqual([
      ['ETH', 0],
      ['USDT', 0],
    ]);
    // A send returns once the node took it; the block holding it may come a moment later.
    const sent = [
      await chain.dev.send({ to: address, asset: 'USDT', amount: 125_500_000n }),
      await chain.dev.send({ to: address, asset: 'ETH', amount: 10n ** 17n }),
    ];
    for (const hash of sent) {
      await until(
        () => chain.chain.receipt(hash),
        (receipt) => receipt?.status === 'success',
        `${hash} mined`,
      );
    }
    const after = await live(alice).ok('chainBalance', { address });
    expect(after.balances.map((b) => [b.asset, Number(b.amount)])).toEqual([
      ['ETH', 0.1],
      ['USDT', 125.5],
    ]);
    expect(BigInt(after.block ?? '0')).toBeGreaterThan(BigInt(before.block ?? '0'));
    // Not an address: 10026 before anything is read.
    expect((await live(alice).call('chainBalance', { address: '0x1234' })).code).toBe(10026);
  });
});

describe('self-custody wallet, without a chain', () => {
  let server: RunningServer;
  let inbox: Inbox;
  useServer({}, (s) => ({ server, inbox } = s));

  it('says the chain balance is not available', async () => {
    const carol = await registerByApi(server, inbox, 'carol.custody@example.com');
    const { address } = privateKeyToAccount(generatePrivateKey());
    expect(await customerApi(server, carol, { book: 'live' }).ok('chainBalance', { address })).toEqual({
      available: false,
      block: null,
      balances: [],
    });
  });
});
