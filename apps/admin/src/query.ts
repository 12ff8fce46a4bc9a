import type { Language } from '@swx/contract';
import { QueryClient } from '@tanstack/react-query';
import { StaffApiError } from './api.ts';

/** Server data of the back office: no retry of a refusal (a code from the server), one of a network failure. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => count < 1 && !(error instanceof StaffApiError && error.code > 0),
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * Query keys: one root per domain (invalidate by the root), the language next, so a language
 * change reloads what the server words.
 */
export const keys = {
  customers: ['customers'] as const,
  customerSearch: (language: Language, q: string) => ['customers', language, 'search', q] as const,
  customer: (language: Language, id: number) => ['customers', language, 'overview', id] as const,
  kyc: ['kyc'] as const,
  staff: ['staff'] as const,
  staffList: (language: Language) => ['staff', language, 'list'] as const,
  audit: ['audit'] as const,
  alerts: ['alerts'] as const,
  alertList: (language: Language, state: string) => ['alerts', language, 'list', state] as const,
  deposits: ['deposits'] as const,
  withdrawals: ['withdrawals'] as const,
  networks: ['networks'] as const,
  networkList: (language: Language) => ['networks', language, 'list'] as const,
  treasury: ['treasury'] as const,
  treasuryRows: (language: Language) => ['treasury', language, 'rows'] as const,
  earn: ['earn'] as const,
  earnProducts: (language: Language) => ['earn', language, 'products'] as const,
  earnProofs: ['earnProofs'] as const,
  swap: ['swap'] as const,
  swapPairs: (language: Language) => ['swap', language, 'pairs'] as const,
  loans: ['loans'] as const,
  loanProducts: (language: Language) => ['loans', language, 'products'] as const,
  loanPools: (language: Language) => ['loans', language, 'pools'] as const,
  loanOverdue: (language: Language) => ['loans', language, 'overdue'] as const,
  loanApplications: ['loanApplications'] as const,
  loanProofs: ['loanProofs'] as const,
  smart: ['smart'] as const,
  smartProducts: (language: Language) => ['smart', language, 'products'] as const,
  smartPlans: (language: Language, filters: Record<string, string>) =>
    ['smart', language, 'plans', filters] as const,
  auditLog: (language: Language, filters: Record<string, string>) =>
    ['audit', language, 'log', filters] as const,
  invites: ['invites'] as const,
  inviteSettings: (language: Language) => ['invites', language, 'settings'] as const,
  inviteLinks: (language: Language, search: string) => ['invites', language, 'links', search] as const,
  invitePayouts: (language: Language) => ['invites', language, 'payouts'] as const,
  help: ['help'] as const,
  helpArticles: (language: Language, type: 5 | 6 | 'pages') => ['help', language, 'list', type] as const,
  helpArticle: (language: Language, id: number) => ['help', language, 'article', id] as const,
  support: ['support'] as const,
  supportInbox: (language: Language, view: string) => ['support', language, 'inbox', view] as const,
  supportConversation: (language: Language, id: number) => ['support', language, 'conversation', id] as const,
  supportAgents: (language: Language) => ['support', language, 'agents'] as const,
  supportCanned: (language: Language) => ['support', language, 'canned'] as const,
  fourEyes: ['fourEyes'] as const,
  fourEyesSettings: (language: Language) => ['fourEyes', language, 'settings'] as const,
};

/** The keys of a review kind under its domain's root (review/ReviewQueue.tsx): its queue and items. */
export const reviewKeys = (root: string) => ({
  root: [root] as const,
  queue: (language: Language) => [root, language, 'queue'] as const,
  item: (language: Language, id: number) => [root, language, 'item', id] as const,
});
