import { defineModule } from '../../platform/module.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';
import { statsRoutes } from './stats.routes.ts';

/** The home page's figures, counted by the server. */
export const statsModule = defineModule({
  name: 'stats',
  create: (
    _platform,
    _needs: { identity: IdentityService; market: MarketService; positions: PositionsService },
  ) => ({}),
  routes: (server, { identity, market, positions }) =>
    statsRoutes(server, { identity, market, trading: positions }),
});
