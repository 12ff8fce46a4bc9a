import { adminCalls, type Language } from '@swx/contract';
import type { ComponentType } from 'react';
import { AuditLog } from './AuditLog.tsx';
import { CustomerPage } from './CustomerPage.tsx';
import { Customers } from './Customers.tsx';
import { KycQueue, KycReviewPage } from './KycQueue.tsx';
import { StaffScreen } from './StaffScreen.tsx';
import { textFor } from './text.ts';

/**
 * A section of the back office: its menu entry (from its own feature's texts, in the staff
 * member's language), its URL, the roles the contract allows for its main call, and its screens
 * (each opened only by those roles). Each feature exports its own (`<feature>/sections.ts`);
 * BackOffice.tsx builds the menu and the routes from them.
 */
export type Section = {
  label: (language: Language) => string;
  path: string;
  roles: readonly string[] | 'public';
  screens: readonly { path: string; Screen: ComponentType }[];
};

/** The core's sections: customers and KYC first in the menu, staff and the audit log later. */
export const coreSections: readonly Section[] = [
  {
    label: (language) => textFor(language).nav.customers,
    path: '/customers',
    roles: adminCalls.searchCustomers.roles,
    screens: [
      { path: '/customers', Screen: Customers },
      { path: '/customers/:id', Screen: CustomerPage },
    ],
  },
  {
    label: (language) => textFor(language).nav.kyc,
    path: '/kyc',
    roles: adminCalls.kycQueue.roles,
    screens: [
      { path: '/kyc', Screen: KycQueue },
      { path: '/kyc/:id', Screen: KycReviewPage },
    ],
  },
  {
    label: (language) => textFor(language).nav.staff,
    path: '/staff',
    roles: adminCalls.listStaff.roles,
    screens: [{ path: '/staff', Screen: StaffScreen }],
  },
  {
    label: (language) => textFor(language).nav.audit,
    path: '/audit',
    roles: adminCalls.auditLog.roles,
    screens: [{ path: '/audit', Screen: AuditLog }],
  },
];
