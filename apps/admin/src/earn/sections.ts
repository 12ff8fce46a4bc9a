import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { EarnProductPage, NewEarnProduct } from './EarnProductPage.tsx';
import { EarnProducts } from './EarnProducts.tsx';
import { EarnProofPage, EarnProofQueue } from './EarnProofs.tsx';
import { EARN_TEXT } from './earn.text.ts';

/** Earn: its products and the purchase proofs to review. */
export const earnSections: readonly Section[] = [
  {
    label: (language) => EARN_TEXT[language].nav.products,
    path: '/earn/products',
    roles: adminCalls.listEarnProducts.roles,
    screens: [
      { path: '/earn/products', Screen: EarnProducts },
      { path: '/earn/products/new', Screen: NewEarnProduct },
      { path: '/earn/products/:id', Screen: EarnProductPage },
    ],
  },
  {
    label: (language) => EARN_TEXT[language].nav.proofs,
    path: '/earn/proofs',
    roles: adminCalls.earnProofQueue.roles,
    screens: [
      { path: '/earn/proofs', Screen: EarnProofQueue },
      { path: '/earn/proofs/:id', Screen: EarnProofPage },
    ],
  },
];
