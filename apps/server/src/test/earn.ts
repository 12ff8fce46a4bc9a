import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EarnProductBody } from '@swx/contract';
import type { AuditService } from '../modules/audit/audit.service.ts';
import { type BasketRate, EarnService } from '../modules/earn/earn.service.ts';
import { CustomerDirectory } from '../modules/identity/identity.customers.ts';
import { KycService } from '../modules/kyc/kyc.service.ts';
import type { LedgerService } from '../modules/ledger/ledger.service.ts';
import type { NoticesService } from '../modules/notices/notices.service.ts';
import { SettlementRunner } from '../modules/products/settlement.ts';
import { UploadsService } from '../modules/uploads/uploads.service.ts';
import type { Database } from '../platform/db.ts';
import { KeyRing } from '../platform/keys.ts';
import { FileStorage } from '../platform/storage.ts';

/**
 * The earn module on real services, as app.ts builds it, with an injected clock and basket (a
 * dynamic product's daily rates come from `basketRate`: the market's in production, a test's
 * chosen series here, since an injected clock runs past the prices the feed keeps).
 */
export function testEarn(
  deps: { db: Database; ledger: LedgerService; audit: AuditService; notices: NoticesService },
  options: { now: () => number; basketRate?: BasketRate; pageSize?: number },
) {
  const uploads = new UploadsService({
    db: deps.db,
    storage: new FileStorage(mkdtempSync(join(tmpdir(), 'swx-earn-'))),
  });
  const kyc = new KycService({
    db: deps.db,
    uploads,
    audit: deps.audit,
    customers: new CustomerDirectory(deps.db),
  });
  const earn = new EarnService({
    ...deps,
    kyc,
    uploads,
    basketRate: options.basketRate ?? (() => null),
    quoteKeys: new KeyRing(Buffer.alloc(32, 9)).purpose('quotes'),
    now: options.now,
  });
  const runner = new SettlementRunner({
    ...deps,
    now: options.now,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  });
  return { earn, runner, kyc, uploads };
}

/** A product body with the tests' defaults (a 30-day static USDT fund at 12 % a year). */
export function productBody(overrides: Partial<EarnProductBody> = {}): EarnProductBody {
  return {
    type: 'fund',
    name: 'Test fund',
    asset: 'USDT',
    income: 'static',
    termDays: 30,
    annualRate: '0.12',
    basket: [],
    minAmount: '100',
    maxAmount: '100000',
    capacity: '1000000',
    penaltyRate: '0.02',
    requiresKyc: false,
    onePerCustomer: false,
    enabled: true,
    ...overrides,
  };
}
