import type { Clock } from '../../platform/clock.ts';
import { dailyKey } from '../../platform/jobs.ts';
import { defineModule } from '../../platform/module.ts';
import type { AuditService } from '../audit/audit.service.ts';
import type { LedgerService } from '../ledger/ledger.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { chainAssets } from './proofs.assets.ts';
import { proofsRoutes } from './proofs.routes.ts';
import { ProofsService } from './proofs.service.ts';

/**
 * Proof of liabilities beside proof of assets (composition: it reads the ledger and the wallet's
 * deposit addresses). Each day at 00:00 UTC on the module clock, the job `proofs.daily` takes the
 * snapshot and publishes the signed roots.
 */
export const proofsModule = defineModule({
  name: 'proofs',
  create: (
    platform,
    needs: { ledger: LedgerService; audit: AuditService; wallet: WalletService; clock: Clock },
  ) => ({
    proofs: new ProofsService({
      db: platform.db,
      ledger: needs.ledger,
      audit: needs.audit,
      leafKeys: platform.keys.purpose('proof-leaves'),
      signingKeys: platform.keys.purpose('proof-signing'),
      assets: chainAssets(platform, needs.wallet),
      now: needs.clock.now,
      logger: platform.logger,
    }),
  }),
  routes: (server, { proofs }) => proofsRoutes(server, proofs),
  jobs: ({ proofs }) => [
    {
      name: 'proofs.daily',
      everyMs: 60_000,
      runKey: dailyKey,
      leaseMs: 30 * 60_000,
      run: async ({ runKey, logger }) => {
        const roots = await proofs.snapshot(runKey);
        logger.info({ day: runKey, assets: roots.length }, 'proof of liabilities published');
      },
    },
  ],
});
