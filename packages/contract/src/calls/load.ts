import type { CallDomain, callDomains } from '../calls.ts';

/**
 * Each domain's calls as a module of its own, for a client that builds a call's schemas only when
 * it first needs them: the customer app sends a request by its route (`callRoutes`) and parses
 * the answer with its domain's schemas, loaded meanwhile. Building every schema of the contract
 * when the app starts costs a phone more than the app's own first render.
 */
export const loadCallDomain: {
  [D in CallDomain]: () => Promise<(typeof callDomains)[D]>;
} = {
  identity: () => import('./identity.ts').then((m) => m.identityCalls),
  market: () => import('./market.ts').then((m) => m.marketCalls),
  content: () => import('./content.ts').then((m) => m.contentCalls),
  params: () => import('./params.ts').then((m) => m.paramsCalls),
  operator: () => import('./operator.ts').then((m) => m.operatorCalls),
  stats: () => import('./stats.ts').then((m) => m.statsCalls),
  nft: () => import('./nft.ts').then((m) => m.nftCalls),
  smart: () => import('./smart.ts').then((m) => m.smartCalls),
  trading: () => import('./trading.ts').then((m) => m.tradingCalls),
  kyc: () => import('./kyc.ts').then((m) => m.kycCalls),
  wallet: () => import('./wallet.ts').then((m) => m.walletCalls),
  loans: () => import('./loans.ts').then((m) => m.loansCalls),
  notices: () => import('./notices.ts').then((m) => m.noticesCalls),
  ledger: () => import('./ledger.ts').then((m) => m.ledgerCalls),
  finance: () => import('./finance.ts').then((m) => m.financeCalls),
  uploads: () => import('./uploads.ts').then((m) => m.uploadCalls),
  invites: () => import('./invites.ts').then((m) => m.invitesCalls),
  proofs: () => import('./proofs.ts').then((m) => m.proofsCalls),
  papers: () => import('./papers.ts').then((m) => m.papersCalls),
  support: () => import('./support.ts').then((m) => m.supportCalls),
  priceAlerts: () => import('./priceAlerts.ts').then((m) => m.priceAlertsCalls),
};
