import { calls, formatMinor, SETTLEMENT_SCALE } from '@swx/contract';
import type { FastifyInstance } from 'fastify';
import { mountCall } from '../../platform/http.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';

/**
 * Home-page figures, counted from the platform's own data, never typed in (DESIGN §2 rule 7).
 * Traded volume is the sum of the opening notionals of live-book positions (demo trades excluded).
 */
export function statsRoutes(
  app: FastifyInstance,
  deps: { identity: IdentityService; market: MarketService; trading: PositionsService },
): void {
  mountCall(app, calls.getPlatformStats, async () => ({
    registeredUsers: await deps.identity.registeredUsers(),
    listedInstruments: deps.market.count,
    listedCrypto: deps.market.countByType()[2] ?? 0,
    tradedVolumeUsdt: formatMinor(await deps.trading.tradedVolume(), SETTLEMENT_SCALE),
  }));
}
