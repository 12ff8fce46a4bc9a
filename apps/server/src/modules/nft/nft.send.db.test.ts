import { Code } from '@swx/contract';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChain, type TestChain } from '../../../../../tests/support/chain.ts';
import { openTestDatabase, TEST_DB, type TestDatabase } from '../../../../../tests/support/db.ts';
import { expectLedgerSound } from '../../../../../tests/support/ledger-sound.ts';
import { KeyRing } from '../../platform/keys.ts';
import type { TestCustomer } from '../../test/context.ts';
import { testWallet } from '../../test/wallet.ts';
import { ownerOf } from './chain/nft.chain.ts';
import { nftChainParts } from './nft.chainport.ts';
import { NftSends } from './nft.send.ts';
import { refusal, type TestNft, testNft } from './nft.testing.ts';

/**
 * The token goes to its owner: bought, then sent to the owner's self-custody address under a
 * withdrawal's rules (the wallet's address book through the port, its 24-hour lock, the mailed
 * code naming the NFT and the address), and the chain says the address owns it.
 */
let t: TestDatabase;
let chain: TestChain;
let s: TestNft;
let sends: NftSends;
const clock = { now: Date.parse('2027-07-01T12:00:00Z') };
let ada: TestCustomer;
let bo: TestCustomer;
let addressId = 0;
const selfCustody = privateKeyToAccount(`0x${'7a'.repeat(32)}`).address.toLowerCase();
/** The address as every answer shows it: EIP-55 checksummed. */
const shown = privateKeyToAccount(`0x${'7a'.repeat(32)}`).address;

beforeAll(async () => {
  t = await openTestDatabase();
  chain = await startTestChain();
  s = await testNft(t.db, clock, chain);
  const wallet = testWallet(s.ctx, { chain: chain.chain, now: () => clock.now });
  sends = new NftSends({
    nft: s.nft,
    identity: s.ctx.identity,
    addresses: (userId) => wallet.wallet.withdrawals.addresses('live', userId),
    sender: nftChainParts(chain)?.sender ?? null,
    quoteKeys: new KeyRing(Buffer.alloc(32, 9)).purpose('quotes'),
  });
  ada = await s.ctx.customer({ live: 10_000_000_000n });
  bo = await s.ctx.customer({ live: 10_000_000_000n });
  addressId = (
    await wallet.wallet.withdrawals.addAddress('live', ada.id, {
      network: 'USDT-EVM',
      address: selfCustody,
      label: 'my wallet',
    })
  ).id;
}, 180_000);
afterAll(async () => {
  await chain?.close();
  await t?.close();
});

describe(`sending an NFT on ${TEST_DB}`, () => {
  it('is refused while the address is locked, then sent on the chain with the mailed code', async () => {
    const drop = await s.drop({ saleType: 'fixed', startPrice: '300' });
    await s.bid(ada.id, drop.id, '', { kind: 'buy' });
    const [mine] = await s.nft.myNfts('live', ada.id);
    expect(mine?.state).toBe('held');
    const address = addressId;
    expect(await refusal(sends.quote('live', ada.id, { nftId: Number(mine?.id), addressId }))).toBe(
      Code.NFT_ADDRESS_LOCKED,
    );
    // Another customer's NFT, or the demo book: nothing.
    expect(
      await refusal(sends.quote('live', bo.id, { nftId: Number(mine?.id), addressId: address as number })),
    ).toBe(Code.NOT_FOUND);
    expect(
      await refusal(sends.quote('demo', ada.id, { nftId: Number(mine?.id), addressId: address as number })),
    ).toBe(Code.LIVE_BOOK_ONLY);
    clock.now += 24 * 3_600_000 + 1000;
    const quote = await sends.quote('live', ada.id, {
      nftId: Number(mine?.id),
      addressId: address as number,
    });
    expect([quote.address, quote.tokenId, quote.confirmation]).toEqual([shown, String(drop.id), 'mail']);
    await sends.sendCode('live', ada.id, 'en', quote.quoteId);
    const mail = s.ctx.mail.filter((m) => m.to === ada.email).at(-1);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1] ?? '';
    // The mail names the address as the customer reads it: checksummed.
    expect(mail?.text).toContain(shown);
    expect(
      await refusal(
        sends.send('live', ada.id, { quoteId: quote.quoteId, requestId: 'send-wrong-1', code: '000000' }),
      ),
    ).toBe(Code.VERIFICATION_CODE_WRONG);
    const sent = await sends.send('live', ada.id, {
      quoteId: quote.quoteId,
      requestId: 'send-right-1',
      code,
    });
    expect([sent.state, sent.sentTo]).toEqual(['sent', shown]);
    expect(sent.sentTo).not.toBe(selfCustody);
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await ownerOf(chain, drop.contractAddress as `0x${string}`, BigInt(drop.id))).toBe(selfCustody);
    const again = await sends
      .quote('live', ada.id, { nftId: Number(mine?.id), addressId: address as number })
      .catch((e) => e.code);
    expect(again).toBe(Code.NFT_NOT_SENDABLE);
    await expectLedgerSound({ db: t.db, ledger: s.ctx.ledger, audit: s.ctx.audit });
  });
});
