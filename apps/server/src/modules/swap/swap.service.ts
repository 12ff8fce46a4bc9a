import {
  type Book,
  formatMinor,
  type SwapBody,
  type SwapPair,
  type SwapPairAdmin,
  type SwapQuote,
  type SwapQuoteBody,
  type SwapRecord,
  type swapPairUpdateBody,
} from '@swx/contract';
import type { z } from 'zod/mini';
import type { Database } from '../../platform/db.ts';
import { KeyRing, type PurposeKeys } from '../../platform/keys.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { EntryDetail, LedgerService } from '../ledger/ledger.service.ts';
import type { MarketService } from '../market/market.service.ts';
import { Quotes } from '../products/quotes.ts';
import { commit, history, quote } from './swap.commit.ts';
import { adminPairs, pairs, updatePair } from './swap.pairs.ts';
import { SWAP } from './swap.quote.ts';
import { insertSwaps, type NewSwap, type SwapRow, swapsOfEntries } from './swap.repository.ts';
import { type SwapContext, scaleOf } from './swap.shared.ts';

export { SWAP_HISTORY_PAGE } from './swap.commit.ts';

/**
 * The currency swap (contract `swap.ts`): pairs staff set, quotes priced from the market at the
 * current second, and the commit of a quote as ONE ledger entry of kind `swap` whose attachment
 * writes the `swaps` row in the entry's transaction. Both books: the demo book swaps virtual money.
 * A thin front over its use cases: the pairs (`swap.pairs.ts`), the quote, commit and history
 * (`swap.commit.ts`); what they share is in `swap.shared.ts`.
 */
export class SwapService {
  private readonly ctx: SwapContext;

  constructor(deps: {
    db: Database;
    ledger: LedgerService;
    market: MarketService;
    audit: AuditService;
    /** Epoch milliseconds (an injected clock in tests). */
    now?: () => number;
    /** The quotes' keys (platform/keys.ts), the same on every node; without them a random key of this process. */
    quoteKeys?: PurposeKeys;
  }) {
    const now = deps.now ?? Date.now;
    this.ctx = {
      db: deps.db,
      ledger: deps.ledger,
      market: deps.market,
      audit: deps.audit,
      now,
      quotes: new Quotes(SWAP, {
        keys: deps.quoteKeys ?? KeyRing.random().purpose('quotes'),
        db: deps.db,
        now: () => now(),
      }),
      // Dated on the service's clock, as the entry is (never the database's).
      records: deps.ledger.attachment<NewSwap, SwapRow>('swap', (tx, rows) =>
        insertSwaps(tx, rows, new Date(now()).toISOString()),
      ),
    };
    // The customer's record states each swap's figures (paid, received, fee) for the app to word.
    deps.ledger.registerDescriber('swap', async (entryIds) => {
      const found = new Map<number, EntryDetail>();
      for (const s of await swapsOfEntries(deps.db, entryIds))
        found.set(s.entryId, {
          orderNo: null,
          instrument: null,
          closeReason: null,
          swap: {
            id: s.id,
            from: s.from,
            to: s.to,
            amount: formatMinor(s.amount, scaleOf(s.from)),
            receive: formatMinor(s.receive, scaleOf(s.to)),
            fee: formatMinor(s.fee, scaleOf(s.to)),
          },
        });
      return found;
    });
  }

  /** Every pair with its limits, fee rate, the mid-market rate now and whether it can be quoted now. */
  pairs(): Promise<SwapPair[]> {
    return pairs(this.ctx);
  }

  /** A quote at the current second, signed for this customer and book; nothing moves. */
  quote(book: Book, userId: number, body: SwapQuoteBody): Promise<SwapQuote> {
    return quote(this.ctx, book, userId, body);
  }

  /** Swaps at exactly the figures of the quote the customer accepted, once per request id, or refuses. */
  commit(book: Book, userId: number, body: SwapBody): Promise<SwapRecord> {
    return commit(this.ctx, book, userId, body);
  }

  /** The customer's swaps in a book, newest first, a page below `before`. */
  history(book: Book, userId: number, before: number | undefined): Promise<SwapRecord[]> {
    return history(this.ctx, book, userId, before);
  }

  // Back office

  adminPairs(): Promise<SwapPairAdmin[]> {
    return adminPairs(this.ctx);
  }

  /** Staff change a pair's limits, fee rate or switch; audited in the change's transaction. */
  updatePair(staffId: number, body: z.infer<typeof swapPairUpdateBody>): Promise<SwapPairAdmin> {
    return updatePair(this.ctx, staffId, body);
  }
}
