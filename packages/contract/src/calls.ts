import type { z } from 'zod/mini';
import { contentCalls } from './calls/content.ts';
import type { CallDefinition } from './calls/define.ts';
import { financeCalls } from './calls/finance.ts';
import { identityCalls } from './calls/identity.ts';
import { kycCalls } from './calls/kyc.ts';
import { ledgerCalls } from './calls/ledger.ts';
import { loansCalls } from './calls/loans.ts';
import { marketCalls } from './calls/market.ts';
import { nftCalls } from './calls/nft.ts';
import { noticesCalls } from './calls/notices.ts';
import { operatorCalls } from './calls/operator.ts';
import { paramsCalls } from './calls/params.ts';
import { smartCalls } from './calls/smart.ts';
import { statsCalls } from './calls/stats.ts';
import { tradingCalls } from './calls/trading.ts';
import { uploadCalls } from './calls/uploads.ts';
import { walletCalls } from './calls/wallet.ts';

export type { CallDefinition } from './calls/define.ts';

export const CUSTOMER_API_BASE = '/swx/customer';

/**
 * Every call of spec §7, one file per domain in `calls/` (a server module's calls, or a planned
 * product's). A new domain is a new file there and one line here; this order is the order of the
 * paths in the OpenAPI document.
 */
export const calls = {
  ...identityCalls,
  ...marketCalls,
  ...contentCalls,
  ...paramsCalls,
  ...operatorCalls,
  ...statsCalls,
  ...nftCalls,
  ...smartCalls,
  ...tradingCalls,
  ...kycCalls,
  ...walletCalls,
  ...loansCalls,
  ...noticesCalls,
  ...ledgerCalls,
  ...financeCalls,
  ...uploadCalls,
} as const satisfies Record<string, CallDefinition>;

export type CallName = keyof typeof calls;
export type CallData<N extends CallName> = z.infer<(typeof calls)[N]['data']>;
