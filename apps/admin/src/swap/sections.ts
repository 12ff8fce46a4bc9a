import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { SwapPairs } from './SwapPairs.tsx';
import { SWAP_TEXT } from './swap.text.ts';

/** Swap: its pairs, limits and fees. */
export const swapSections: readonly Section[] = [
  {
    label: (language) => SWAP_TEXT[language].nav.pairs,
    path: '/swap/pairs',
    roles: adminCalls.listSwapPairs.roles,
    screens: [{ path: '/swap/pairs', Screen: SwapPairs }],
  },
];
