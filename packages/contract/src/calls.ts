import type { z } from 'zod/mini';
import { contentCalls } from './calls/content.ts';
import type { CallDefinition } from './calls/define.ts';
import { financeCalls } from './calls/finance.ts';
import { identityCalls } from './calls/identity.ts';
import { invitesCalls } from './calls/invites.ts';
import { kycCalls } from './calls/kyc.ts';
import { ledgerCalls } from './calls/ledger.ts';
import { loansCalls } from './calls/loans.ts';
import { marketCalls } from './calls/market.ts';
import { nftCalls } from './calls/nft.ts';
import { noticesCalls } from './calls/notices.ts';
import { operatorCalls } from './calls/operator.ts';
import { papersCalls } from './calls/papers.ts';
import { paramsCalls } from './calls/params.ts';
import { priceAlertsCalls } from './calls/priceAlerts.ts';
import { proofsCalls } from './calls/proofs.ts';
import { smartCalls } from './calls/smart.ts';
import { statsCalls } from './calls/stats.ts';
import { supportCalls } from './calls/support.ts';
import { tradingCalls } from './calls/trading.ts';
import { uploadCalls } from './calls/uploads.ts';
import { walletCalls } from './calls/wallet.ts';

export type { CallDefinition } from './calls/define.ts';

export const CUSTOMER_API_BASE = '/swx/customer';

/**
 * Every call of spec §7 by domain, one file per domain in `calls/` (a server module's calls, or a
 * planned product's). A new domain is a new file there, one line here and one in
 * `calls/load.ts`; this order is the order of the paths in the OpenAPI document.
 */
export const callDomains = {
  identity: identityCalls,
  market: marketCalls,
  content: contentCalls,
  params: paramsCalls,
  operator: operatorCalls,
  stats: statsCalls,
  nft: nftCalls,
  smart: smartCalls,
  trading: tradingCalls,
  kyc: kycCalls,
  wallet: walletCalls,
  loans: loansCalls,
  notices: noticesCalls,
  ledger: ledgerCalls,
  finance: financeCalls,
  uploads: uploadCalls,
  invites: invitesCalls,
  proofs: proofsCalls,
  papers: papersCalls,
  support: supportCalls,
  priceAlerts: priceAlertsCalls,
} as const satisfies Record<string, Record<string, CallDefinition>>;

export type CallDomain = keyof typeof callDomains;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;

/** The domains' calls in one object, in the domains' order (a bundler drops it when unused). */
/* @__NO_SIDE_EFFECTS__ */
function merged<D extends Record<string, Record<string, CallDefinition>>>(
  domains: D,
): UnionToIntersection<D[keyof D]> {
  return Object.assign({}, ...Object.values(domains));
}

/** Every call of spec §7 by name. */
export const calls = merged(callDomains);

export type CallName = keyof typeof calls;
export type CallData<N extends CallName> = z.infer<(typeof calls)[N]['data']>;

/** A call's method and path, and the domain whose module (`calls/load.ts`) holds its schemas. */
export type CallRoute = readonly [method: 'GET' | 'POST', path: string, domain: CallDomain];

/**
 * Every call's route, without its schemas: what a client needs to send a call. The customer app's
 * build writes this table into the app (`virtual:swx/call-routes`) so the app starts without
 * building the contract's schemas.
 */
export function callRoutes(): Record<CallName, CallRoute> {
  const routes: Partial<Record<CallName, CallRoute>> = {};
  for (const [domain, domainCalls] of Object.entries(callDomains) as [
    CallDomain,
    Partial<Record<CallName, CallDefinition>>,
  ][])
    for (const [name, definition] of Object.entries(domainCalls) as [CallName, CallDefinition][])
      routes[name] = [definition.method, definition.path, domain];
  return routes as Record<CallName, CallRoute>;
}
