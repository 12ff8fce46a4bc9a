import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { LedgerFacts } from '../ledger/ledger.facts.ts';
import type { MarketService } from '../market/market.service.ts';
import type { CustomerAddresses } from '../products/ports.ts';
import { defineProduct, type ProductNeeds } from '../products/product.ts';
import { invitesRoutes } from './invites.routes.ts';
import { InvitesService } from './invites.service.ts';

/**
 * Invite friends: codes and links made at registration, daily rewards from the fees collected
 * from friends' live books, held, then paid from the fees account on the settlement runner's day.
 */
export const invitesModule = defineProduct({
  name: 'invites',
  create: (
    platform,
    deps: ProductNeeds<{
      identity: IdentityService;
      customers: CustomerDirectory;
      market: MarketService;
      ledgerFacts: LedgerFacts;
      customerAddresses: CustomerAddresses;
    }>,
  ) => {
    const invites = new InvitesService({
      db: platform.db,
      ledger: deps.ledger,
      facts: deps.ledgerFacts,
      kyc: deps.kyc,
      params: deps.params,
      audit: deps.audit,
      notices: deps.notices,
      customers: deps.customers,
      addresses: deps.customerAddresses,
      // The cap's USDT value of an asset: its <ASSET>USDT mid price now.
      usdtPrice: (asset) => (asset === 'USDT' ? '1' : deps.market.midPrice(`${asset}USDT`)),
      now: deps.clock.now,
      logger: platform.logger,
    });
    // A registration that names an invite code: checked before the code is consumed, then linked.
    deps.identity.useRegistrationHook(invites.registrationHook());
    return { invites };
  },
  quotes: [],
  notices: ['invite_reward_paid'],
  routes: (server, { invites, staff }) => invitesRoutes(server, invites, staff),
  // Each day, after it closes: the day accrued, reversed deposits' rewards cancelled, what is payable paid.
  settle: ({ invites }, runner) => invites.runDaily(runner.dueDay()),
});
