import { alertsModule } from './modules/alerts/alerts.module.ts';
import { auditModule } from './modules/audit/audit.module.ts';
import { contentModule } from './modules/content/content.module.ts';
import { deskModule } from './modules/desk/desk.module.ts';
import { earnModule } from './modules/earn/earn.module.ts';
import { identityModule } from './modules/identity/identity.module.ts';
import { invitesModule } from './modules/invites/invites.module.ts';
import { kycModule } from './modules/kyc/kyc.module.ts';
import { ledgerModule } from './modules/ledger/ledger.module.ts';
import { loansModule } from './modules/loans/loans.module.ts';
import { marketModule } from './modules/market/market.module.ts';
import { nftModule } from './modules/nft/nft.module.ts';
import { noticesModule } from './modules/notices/notices.module.ts';
import { operatorModule } from './modules/operator/operator.module.ts';
import { papersModule } from './modules/papers/papers.module.ts';
import { paramsModule } from './modules/params/params.module.ts';
import { positionsModule } from './modules/positions/positions.module.ts';
import { priceAlertsModule } from './modules/pricealerts/pricealerts.module.ts';
import { productsModule } from './modules/products/products.module.ts';
import { proofsModule } from './modules/proofs/proofs.module.ts';
import { reviewModule } from './modules/review/review.module.ts';
import { smartModule } from './modules/smart/smart.module.ts';
import { staffModule } from './modules/staff/staff.module.ts';
import { statsModule } from './modules/stats/stats.module.ts';
import { supportModule } from './modules/support/support.module.ts';
import { swapModule } from './modules/swap/swap.module.ts';
import { uploadsModule } from './modules/uploads/uploads.module.ts';
import { walletModule } from './modules/wallet/wallet.module.ts';
import type { MissingNeeds, ServicesOf } from './platform/module.ts';

/**
 * Every server module, in the order they are built: a module is given what the modules before it
 * gave (platform/module.ts). Adding a module is one line here; app.ts and main.ts build the
 * services, calls, jobs, start and stop from this list.
 */
export const MODULES = [
  auditModule,
  marketModule,
  noticesModule,
  ledgerModule,
  identityModule,
  staffModule,
  paramsModule,
  uploadsModule,
  reviewModule,
  kycModule,
  operatorModule,
  contentModule,
  alertsModule,
  supportModule,
  productsModule,
  // Before positions: its trigger engine tells the price alerts each tick (a port, `TickWatcher`).
  priceAlertsModule,
  positionsModule,
  walletModule,
  earnModule,
  loansModule,
  swapModule,
  smartModule,
  invitesModule,
  nftModule,
  deskModule,
  proofsModule,
  papersModule,
  statsModule,
] as const;

export type Services = ServicesOf<typeof MODULES>;

/**
 * The floors of the modules that are not products (ARCHITECTURE.md, "Module floors"; checked by
 * architecture.imports.test.ts). A product needs no entry: any module built with the kit's
 * `defineProduct` stands on the product floor.
 */
export const FLOORS = {
  base: [
    'audit',
    'market',
    'notices',
    'ledger',
    'identity',
    'staff',
    'params',
    'uploads',
    'review',
    'kyc',
    'operator',
    'content',
    'alerts',
    'support',
  ],
  kit: ['products'],
  composition: ['desk', 'stats', 'proofs', 'papers'],
} as const;

/** A compile error names the module whose needs come later in the list, and what it lacks. */
const ordered: MissingNeeds<typeof MODULES> = true;
void ordered;
