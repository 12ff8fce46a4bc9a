import { defineModule } from '../../platform/module.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { PositionsService } from '../positions/positions.service.ts';
import type { StaffService } from '../staff/staff.service.ts';
import { DeskCustomers } from './desk.customers.ts';
import { deskRoutes } from './desk.routes.ts';

/** The back office's customers screen: search, one customer across the products, lock and unlock. */
export const deskModule = defineModule({
  name: 'desk',
  create: (
    platform,
    deps: {
      staff: StaffService;
      customers: CustomerDirectory;
      kyc: KycService;
      ledger: LedgerService;
      positions: PositionsService;
    },
  ) => ({
    deskCustomers: new DeskCustomers({
      db: platform.db,
      staff: deps.staff,
      customers: deps.customers,
      kyc: deps.kyc,
      ledger: deps.ledger,
      trading: deps.positions,
    }),
  }),
  routes: (server, { staff, deskCustomers }) => deskRoutes(server, staff, deskCustomers),
});
