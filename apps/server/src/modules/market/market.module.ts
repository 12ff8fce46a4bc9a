import { defineModule } from '../../platform/module.ts';
import { marketRoutes } from './market.routes.ts';
import { MarketService } from './market.service.ts';
import { QuoteFeed } from './quote-feed.ts';
import { QuoteHub } from './quote-hub.ts';
import { createPriceSource } from './source.ts';

/** Instruments, their prices and terms; the quote feed and its websocket hub. */
export const marketModule = defineModule({
  name: 'market',
  create: (platform, { clock }) => {
    const market = new MarketService(
      platform.db,
      clock.now,
      createPriceSource(platform.config, platform.logger),
    );
    const feed = new QuoteFeed({
      market,
      bus: platform.bus,
      redis: platform.redis,
      nodeId: platform.config.nodeId,
      logger: platform.logger,
      now: clock.now,
    });
    return { market, feed, quotes: new QuoteHub(platform.bus, (code) => market.typeOf(code)) };
  },
  routes: (server, { market, quotes }) => marketRoutes(server, market, quotes),
  prepare: async ({ market }) => {
    await market.load();
    market.startSource();
  },
  start: ({ feed }, platform) => {
    if (platform.config.feed) feed.start();
  },
  stop: ({ feed, market, quotes }) => {
    feed.stop();
    market.source.stop();
    quotes.close();
  },
});
