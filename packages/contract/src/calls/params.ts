import { paramKeyParams, systemParam } from '../content.ts';
import { type CallDefinition, call } from './define.ts';

/** Public system parameters (`modules/params`). */
export const paramsCalls = {
  getParamByKey: call({
    method: 'GET',
    path: '/index/getParamByKey/:key',
    summary: 'A public system parameter',
    auth: false,
    status: 'live',
    params: paramKeyParams,
    data: systemParam,
  }),
} as const satisfies Record<string, CallDefinition>;
