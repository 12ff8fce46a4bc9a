import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { MarketService } from '../market/market.service.ts';
import type { TickWatcher } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { AlertDelivery } from './pricealerts.deliver.ts';
import { PriceAlertEngine } from './pricealerts.engine.ts';
import { vapidOf } from './pricealerts.push.ts';
import { priceAlertsRoutes } from './pricealerts.routes.ts';
import { PriceAlertsService } from './pricealerts.service.ts';

/** Price alerts: set by customers, evaluated on the feed's ticks, told by notice, mail and Web Push. */
export const priceAlertsModule = defineProduct({
  name: 'pricealerts',
  create: (platform, deps: ProductNeeds<{ market: MarketService; customers: CustomerDirectory }>) => {
    const vapid = vapidOf(platform.config.vapid);
    const priceAlerts = new PriceAlertsService({
      db: platform.db,
      market: deps.market,
      bus: platform.bus,
      vapid,
      now: deps.clock.now,
    });
    const delivery = new AlertDelivery({
      notices: deps.notices,
      customers: deps.customers,
      mailer: platform.mailer,
      db: platform.db,
      vapid,
      publicUrl: platform.config.publicUrl,
      logger: platform.logger,
    });
    const alertEngine = new PriceAlertEngine({
      alerts: priceAlerts,
      delivery,
      bus: platform.bus,
      logger: platform.logger,
    });
    // Told each tick by the positions' trigger engine (products/ports.ts), after its own triggers.
    const tickWatcher: TickWatcher = (t) => void alertEngine.tick(t);
    return { priceAlerts, alertEngine, tickWatcher };
  },
  quotes: [],
  notices: ['price_alert_above', 'price_alert_below', 'price_alert_move'],
  routes: (server, { priceAlerts }) => priceAlertsRoutes(server, priceAlerts),
  prepare: async ({ alertEngine }) => alertEngine.start(),
  stop: ({ alertEngine }) => alertEngine.stop(),
});
