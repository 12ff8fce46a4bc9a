import { creditScore, identificationBody, identificationStatus } from '../kyc.ts';
import { type CallDefinition, call } from './define.ts';

/** Identity verification and the credit score (`modules/kyc`). */
export const kycCalls = {
  identification: call({
    method: 'POST',
    path: '/user/identification',
    summary:
      'Submit identity verification (KYC): the fields and the upload ids of three photos (uploaded first with purposes kyc_front, kyc_back, kyc_in_hand); answers 20001 and the new state',
    auth: true,
    status: 'live',
    body: identificationBody,
    data: identificationStatus,
  }),
  getIdentification: call({
    method: 'GET',
    path: '/user/getIdentification',
    summary: 'My verification state (none, pending, verified, failed), its times, the reason of a failure',
    auth: true,
    status: 'live',
    data: identificationStatus,
  }),
  getCreditScore: call({
    method: 'GET',
    path: '/user/getCreditScore',
    summary: 'My credit score, computed from listed rules (base 60; +20 with verified identity)',
    auth: true,
    status: 'live',
    data: creditScore,
  }),
} as const satisfies Record<string, CallDefinition>;
