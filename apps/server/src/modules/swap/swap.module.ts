import type { MarketService } from '../market/market.service.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { SWAP } from './swap.quote.ts';
import { swapRoutes } from './swap.routes.ts';
import { SwapService } from './swap.service.ts';

/** Currency swap: quotes priced from the market, committed as one ledger entry. */
export const swapModule = defineProduct({
  name: 'swap',
  create: (platform, deps: ProductNeeds<{ market: MarketService }>) => ({
    swap: new SwapService({
      db: platform.db,
      ledger: deps.ledger,
      market: deps.market,
      audit: deps.audit,
      quoteKeys: platform.keys.purpose('quotes'),
      now: deps.clock.now,
    }),
  }),
  quotes: [SWAP],
  notices: [],
  routes: (server, { swap, staff }) => swapRoutes(server, swap, staff),
});
