import { NFT_QUOTE_SECONDS } from '@swx/contract';
import { z } from 'zod/mini';
import { bigintText, type QuoteProduct } from '../products/quotes.ts';

/**
 * The figures of a bid or buy quote: what the commit holds (a bid) or holds and posts at once (a
 * purchase), and, if it wins, the charity's part and the platform's fee. The commit judges the
 * bid again under the drop's lock (the auction may have moved since): a bid the rules refuse then
 * is 10060 / 10061 / 10062, never a different amount.
 */
export const nftQuoteFigures = z.object({
  dropId: z.int(),
  kind: z.enum(['bid', 'buy']),
  amount: bigintText,
  charity: bigintText,
  fee: bigintText,
});
export type NftQuoteFigures = z.output<typeof nftQuoteFigures>;

export const NFT_QUOTE: QuoteProduct<typeof nftQuoteFigures> = {
  name: 'nft.v1',
  validSeconds: NFT_QUOTE_SECONDS,
  figures: nftQuoteFigures,
};
