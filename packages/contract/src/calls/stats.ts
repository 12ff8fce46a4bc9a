import { platformStats } from '../market.ts';
import { type CallDefinition, call } from './define.ts';

/** Home-page figures (`modules/stats`). */
export const statsCalls = {
  getPlatformStats: call({
    method: 'GET',
    path: '/index/getPlatformStats',
    summary: 'Home-page figures counted from the platform’s own data: registered users, listed instruments',
    auth: false,
    status: 'live',
    data: platformStats,
  }),
} as const satisfies Record<string, CallDefinition>;
