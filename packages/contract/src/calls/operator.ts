import { operatorInfo } from '../operator.ts';
import { type CallDefinition, call } from './define.ts';

/** Who operates the platform (`modules/operator`). */
export const operatorCalls = {
  getOperator: call({
    method: 'GET',
    path: '/index/getOperator',
    summary:
      'Who operates the platform: company, registration, regulator, contacts, risk figure, leaders, partners and links as staff set them; sandbox when no company is named',
    auth: false,
    status: 'live',
    data: operatorInfo,
  }),
} as const satisfies Record<string, CallDefinition>;
