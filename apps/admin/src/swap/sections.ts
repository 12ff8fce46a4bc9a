import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { SwapPairs } from './SwapPairs.tsx';

/** Swap: its pairs, limits and fees. */
export const swapSections: readonly Section[] = [
  {
    name: 'swapPairs',
    path: '/swap/pairs',
    roles: adminCalls.listSwapPairs.roles,
    screens: [{ path: '/swap/pairs', Screen: SwapPairs }],
  },
];
