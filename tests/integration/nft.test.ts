import { ADMIN_API_BASE, Code, UPLOAD_FIELD } from '@swx/contract';
import { getAddress } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerByApi } from '../support/accounts.ts';
import { type CustomerApi, customerApi, type StaffApi, staffApi } from '../support/api.ts';
import { pngImage } from '../support/images.ts';
import { useServer } from '../support/integration.ts';
import type { RunningServer } from '../support/server.ts';
import type { Inbox } from '../support/smtp.ts';
import { enrolStaffByApi } from '../support/staff.ts';

/** A drop's artwork, as the back office sends it: multipart, one part named "file". */
async function uploadArtwork(baseUrl: string, token: string, bytes: Buffer) {
  const form = new FormData();
  form.append(UPLOAD_FIELD, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'drawing.png');
  const response = await fetch(`${baseUrl}${ADMIN_API_BASE}/nft/artwork`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  return (await response.json()) as { code: number; data: { id: string } };
}

/**
 * Charity NFTs over HTTP, as an attacker would try them: a drop made and minted by staff on the
 * embedded chain; another customer's quote, bids and NFTs get nothing; a customer's token opens
 * no back-office call; the public log answers anyone, and a bid counts in the market for all.
 */
describe('charity NFTs over HTTP', () => {
  let server: RunningServer;
  let inbox: Inbox;
  let oneTimePasswords: Record<string, string>;
  let admin: StaffApi;
  let adminToken: string;
  let alice: CustomerApi;
  let bob: CustomerApi;
  let aliceToken: string;
  let dropId: string;

  useServer(
    { env: { CHAIN: 'embedded' }, staff: [{ email: 'admin@swx.test', role: 'admin' }] },
    (s) => ({ server, inbox, oneTimePasswords } = s),
  );
  beforeAll(async () => {
    const staff = await enrolStaffByApi(
      server.baseUrl,
      'admin@swx.test',
      oneTimePasswords['admin@swx.test'] ?? '',
    );
    admin = staffApi(server, staff);
    adminToken = staff.token;
    const a = await registerByApi(server, inbox, 'alice.nft@example.com');
    aliceToken = a.token;
    alice = customerApi(server, a, { language: 'en', book: 'demo' });
    bob = customerApi(server, await registerByApi(server, inbox, 'bob.nft@example.com'), {
      language: 'en',
      book: 'demo',
    });
    const charity = await admin.ok('addNftCharity', {
      name: "Children's Fund",
      address: '0x00000000000000000000000000000000000c4a41',
    });
    const art = await uploadArtwork(server.baseUrl, adminToken, await pngImage(320, 320, 7));
    expect(art.code).toBe(200);
    const draft = await admin.ok('createNftDrop', {
      book: 'demo',
      name: 'Drawing 1',
      description: 'A drawing by a child of the programme.',
      creator: 'Mia, 9',
      artworkUploadId: art.data.id,
      charityId: String(charity.id),
      asset: 'USDT',
      saleType: 'auction',
      startPrice: '100',
      durationMinutes: 60,
    });
    dropId = (await admin.ok('mintNftDrop', { dropId: String(draft.id) })).id;
  }, 120_000);

  it("refuses another customer's quote, and shows each customer only their own bids", async () => {
    const quote = await alice.ok('quoteNft', { dropId: String(dropId), kind: 'bid', amount: '100' });
    const stolen = await bob.call('buyNft', { quoteId: quote.quoteId, requestId: 'nft-bob-steals-1' });
    expect(stolen.code).toBe(Code.NOT_FOUND);
    // The other book cannot accept it either.
    const live = customerApi(server, { token: aliceToken }, { language: 'en', book: 'live' });
    expect((await live.call('buyNft', { quoteId: quote.quoteId, requestId: 'nft-alice-live-1' })).code).toBe(
      Code.NOT_FOUND,
    );
    const order = await alice.ok('buyNft', { quoteId: quote.quoteId, requestId: 'nft-alice-1' });
    expect(order).toMatchObject({ dropId, kind: 'bid', amount: '100.000000', state: 'leading' });
    // Database ids are strings on the wire (digits only), never JSON numbers.
    expect([typeof order.dropId, typeof order.bidId]).toEqual(['string', 'string']);
    expect(order.bidId).toMatch(/^[1-9][0-9]*$/);
    // Accepted once: the same quote again is no second bid.
    const again = await alice.call('buyNft', { quoteId: quote.quoteId, requestId: 'nft-alice-2' });
    expect(again.code).not.toBe(200);

    expect((await alice.ok('listMyNftBids')).map((b) => b.nft.id)).toContain(dropId);
    expect(await bob.ok('listMyNftBids')).toEqual([]);
    const seen = await bob.ok('getNft', { id: String(dropId) });
    expect(seen.nft).toMatchObject({ currentBid: '100.000000', bidCount: 1 });
    // Bob sees that there is a bid, not whose.
    expect(JSON.stringify(seen.bids)).not.toContain('alice');
  });

  it("sends nothing that is not the customer's, and opens no back-office call to a customer", async () => {
    expect(await bob.ok('listMyNft')).toEqual([]);
    // A demo NFT never leaves the demo book; in the live book Bob owns nothing to send.
    expect((await bob.call('quoteNftSend', { nftId: String(dropId), addressId: '1' })).code).toBe(
      Code.LIVE_BOOK_ONLY,
    );
    const send = await bob.call('quoteNftSend', { nftId: String(dropId), addressId: '1' }, { book: 'live' });
    expect([Code.NOT_FOUND, Code.INVALID_INPUT]).toContain(send.code);
    const asCustomer = staffApi(server, { token: aliceToken });
    expect((await asCustomer.call('listNftDrops', {})).status).toBe(401);
    expect((await asCustomer.call('mintNftDrop', { dropId: String(dropId) })).status).toBe(401);
    const anonymous = customerApi(server, null, { language: 'en' });
    expect(
      (await anonymous.call('buyNft', { quoteId: 'x'.repeat(20), requestId: 'nft-anon-1' })).status,
    ).toBe(401);
    // The public log answers anyone.
    expect((await anonymous.call('getNftLogHead')).code).toBe(200);
  });

  it('shows every address checksummed (EIP-55), and refuses a charity address with a mistyped checksum', async () => {
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    // One letter's case changed: a mistyped address, not this one.
    const mistyped = '0x52908400098527886E0F7030069857D2E4169Ee7';
    const refused = await admin.call('addNftCharity', { name: 'Typo Fund', address: mistyped });
    expect(refused.code).toBe(Code.INVALID_INPUT);
    expect(JSON.stringify(refused.data)).toContain('checksum');
    const added = await admin.ok('addNftCharity', {
      name: 'Harbour Fund',
      address: checksummed.toLowerCase(),
    });
    expect(added.address).toBe(checksummed);
    expect((await admin.ok('listNftCharities')).charities.map((c) => c.address)).toContain(checksummed);
    const { nft } = await bob.ok('getNft', { id: String(dropId) });
    expect(nft.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(nft.contractAddress).toBe(getAddress(nft.contractAddress as string));
    expect(nft.charity.address).toBe(getAddress(nft.charity.address));
    const [drop] = await admin.ok('listNftDrops', {});
    expect(drop?.contractAddress).toBe(nft.contractAddress);
  });

  it('answers the public log by drop, and refuses a drop that is no id', async () => {
    const anonymous = customerApi(server, null, { language: 'en' });
    // A demo sale is no donation of the public log: the drop has no leaf.
    expect(await anonymous.ok('listNftLogLeaves', { dropId: String(dropId) })).toEqual([]);
    expect((await anonymous.call('listNftLogLeaves', { dropId: '0' })).code).toBe(Code.INVALID_INPUT);
    expect((await anonymous.call('listNftLogLeaves', { dropId: 'one' })).code).toBe(Code.INVALID_INPUT);
  });
});
