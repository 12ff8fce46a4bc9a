import { calls } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { MarketService } from '../market/market.service.ts';

/**
 * Home-page figures, counted from the platform's own data, never typed in (DESIGN §2 rule 7).
 * Traded volume joins them when the trading module records trades.
 */
export function statsRoutes(
  app: FastifyInstance,
  deps: { identity: IdentityService; market: MarketService },
): void {
  mountCall(app, calls.getPlatformStats, async () => ({
    registeredUsers: await deps.identity.registeredUsers(),
    listedInstruments: deps.market.count,
    listedCrypto: deps.market.countByType()[2] ?? 0,
  }));
}
