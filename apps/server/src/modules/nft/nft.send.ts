import { type Book, Code, type Language, type MyNft, type NftSendQuote } from '@swx/contract';
import { z } from 'zod/mini';
import { ApiError } from '../../platform/http.ts';
import type { PurposeKeys } from '../../platform/keys.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { WithdrawalAddressBook } from '../products/ports.ts';
import { type QuoteProduct, Quotes } from '../products/quotes.ts';
import { holdingById, markSending, markSent, unmarkSending } from './nft.bids.repository.ts';
import { dropById } from './nft.repository.ts';
import type { NftService } from './nft.service.ts';
import { myNftOf, shownAddress } from './nft.views.ts';

/**
 * Sending an NFT to an address, under a withdrawal's rules: live book only (10043), an address of
 * the customer's withdrawal addresses past its 24-hour lock (10021 / 10064 `{usableFrom}`, from
 * the wallet's book through the `WithdrawalAddressBook` port), confirmed by the same code as a
 * withdrawal (identity: authenticator or a mailed code naming the NFT and the address; 10091
 * when wrong). Then the holding is marked sending (once: `WHERE state = 'held'`), the token is
 * transferred on the chain from the custody account, and the holding is sent with its hash; a
 * chain that refuses gives the NFT back (10065).
 */

const sendFigures = z.object({
  nftId: z.int(),
  addressId: z.int(),
  address: z.string(),
});
export const NFT_SEND: QuoteProduct<typeof sendFigures> = {
  name: 'nft.send.v1',
  validSeconds: 600,
  figures: sendFigures,
};

/** The custody account's transfer of a token to an address (modules/nft/chain), answering the hash. */
export type NftSender = (to: string, tokenId: bigint) => Promise<string>;

export class NftSends {
  private readonly nft: NftService;
  private readonly identity: IdentityService;
  private readonly book: WithdrawalAddressBook;
  private readonly sender: NftSender | null;
  private readonly quotes: Quotes<typeof sendFigures>;

  constructor(deps: {
    nft: NftService;
    identity: IdentityService;
    addresses: WithdrawalAddressBook;
    sender: NftSender | null;
    quoteKeys: PurposeKeys;
  }) {
    this.nft = deps.nft;
    this.identity = deps.identity;
    this.book = deps.addresses;
    this.sender = deps.sender;
    this.quotes = new Quotes(NFT_SEND, { keys: deps.quoteKeys, db: deps.nft.db, now: deps.nft.now });
  }

  private async target(userId: number, nftId: number, addressId: number) {
    const holding = await holdingById(this.nft.db, nftId);
    if (!holding || holding.userId !== userId || holding.book !== 'live') throw new ApiError(Code.NOT_FOUND);
    if (holding.state !== 'held') throw new ApiError(Code.NFT_NOT_SENDABLE, { state: holding.state });
    const address = (await this.book(userId)).find((a) => a.id === addressId);
    if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address.address))
      throw new ApiError(Code.RECEIVING_ADDRESS_MISSING);
    if (Date.parse(address.usableFrom) > this.nft.now())
      throw new ApiError(Code.NFT_ADDRESS_LOCKED, { usableFrom: address.usableFrom });
    const drop = await dropById(this.nft.db, holding.dropId);
    if (!drop || drop.tokenId === null || drop.contractAddress === null)
      throw new ApiError(Code.NFT_NOT_SENDABLE);
    return { holding, drop, address: address.address.toLowerCase() };
  }

  private facts(drop: { name: string; tokenId: bigint | null }, address: string) {
    return { amount: '1', asset: `NFT #${drop.tokenId}`, network: drop.name, address: shownAddress(address) };
  }

  async quote(book: Book, userId: number, body: { nftId: number; addressId: number }): Promise<NftSendQuote> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const { drop, address } = await this.target(userId, body.nftId, body.addressId);
    const second = Math.floor(this.nft.now() / 1000);
    const figures = { nftId: body.nftId, addressId: body.addressId, address };
    return {
      ...this.quotes.issue({ customerId: userId, book }, second, figures),
      ...figures,
      nftId: String(body.nftId),
      addressId: String(body.addressId),
      address: shownAddress(address),
      chain: 'ETH',
      contractAddress: shownAddress(drop.contractAddress as string),
      tokenId: (drop.tokenId as bigint).toString(),
      confirmation: await this.identity.confirmationMethod(userId),
    };
  }

  async sendCode(book: Book, userId: number, language: Language, quoteId: string) {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    const issued = this.quotes.verify(quoteId, { customerId: userId, book });
    const now = Math.floor(this.nft.now() / 1000);
    if (now > issued.expiresAt) throw new ApiError(Code.PRICE_CHANGED, { expiresAt: issued.expiresAt, now });
    const { drop } = await this.target(userId, issued.figures.nftId, issued.figures.addressId);
    return this.identity.sendActionCode(userId, language, this.facts(drop, issued.figures.address));
  }

  async send(
    book: Book,
    userId: number,
    body: { quoteId: string; requestId: string; code: string },
  ): Promise<MyNft> {
    if (book !== 'live') throw new ApiError(Code.LIVE_BOOK_ONLY);
    return this.quotes.commit(
      body.quoteId,
      { customerId: userId, book },
      {
        requestKey: `${userId}:${body.requestId}`,
        replay: async () => null,
        post: async ({ figures }) => {
          const { drop, holding } = await this.target(userId, figures.nftId, figures.addressId);
          await this.identity.confirmAction(userId, body.code, this.facts(drop, figures.address));
          if (!this.sender) throw new ApiError(Code.SERVICE_UNAVAILABLE, { reason: 'chain_off' });
          const at = new Date(this.nft.now()).toISOString();
          if (!(await markSending(this.nft.db, holding.id, figures.address, body.requestId)))
            throw new ApiError(Code.NFT_NOT_SENDABLE);
          let txHash: string;
          try {
            txHash = await this.sender(figures.address, drop.tokenId as bigint);
          } catch {
            await unmarkSending(this.nft.db, holding.id);
            throw new ApiError(Code.NFT_SEND_FAILED);
          }
          await markSent(this.nft.db, holding.id, txHash, at);
          const sent = await holdingById(this.nft.db, holding.id);
          return myNftOf(sent ?? holding, drop);
        },
      },
    );
  }
}
