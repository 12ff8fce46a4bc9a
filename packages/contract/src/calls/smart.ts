import { type CallDefinition, call, planned } from './define.ts';

/** Smart trading plans (planned). */
export const smartCalls = {
  buySmart: call({
    method: 'POST',
    path: '/order/buySmart',
    summary: 'Join a smart trading plan',
    auth: true,
    status: 'planned',
    data: planned,
  }),
  listSmartOrder: call({
    method: 'GET',
    path: '/order/listSmartOrder',
    summary: 'My smart trading plans',
    auth: true,
    status: 'planned',
    data: planned,
  }),
} as const satisfies Record<string, CallDefinition>;
