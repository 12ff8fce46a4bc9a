import type { OperatorSettings } from '@swx/contract';

/**
 * The registered identity of the example operator the tests set (Harbour Markets, Cyprus): company,
 * licence, support address and risk figure. Each test adds the lists and texts it needs.
 */
export const HARBOUR_IDENTITY = {
  companyName: 'Harbour Markets Ltd',
  registrationNumber: 'HE 412233',
  registrationCountry: 'CY',
  registeredAddress: '12 Quay Street, 3036 Limassol',
  regulator: 'Cyprus Securities and Exchange Commission',
  licenceNumber: '388/20',
  supportEmail: 'help@harbour-markets.com',
  riskPercent: '74.5',
  riskAsOf: '2026-09-30',
} satisfies Partial<OperatorSettings>;
