import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { SmartPlanPage, SmartPlans } from './SmartPlans.tsx';
import { NewSmartProduct, SmartProductPage } from './SmartProductPage.tsx';
import { SmartProducts } from './SmartProducts.tsx';
import { SMART_TEXT } from './smart.text.ts';

/** Smart plans: the products and the plans running. */
export const smartSections: readonly Section[] = [
  {
    label: (language) => SMART_TEXT[language].nav.products,
    path: '/smart/products',
    roles: adminCalls.listSmartProducts.roles,
    screens: [
      { path: '/smart/products', Screen: SmartProducts },
      { path: '/smart/products/new', Screen: NewSmartProduct },
      { path: '/smart/products/:id', Screen: SmartProductPage },
    ],
  },
  {
    label: (language) => SMART_TEXT[language].nav.plans,
    path: '/smart/plans',
    roles: adminCalls.smartPlanMonitor.roles,
    screens: [
      { path: '/smart/plans', Screen: SmartPlans },
      { path: '/smart/plans/:id', Screen: SmartPlanPage },
    ],
  },
];
