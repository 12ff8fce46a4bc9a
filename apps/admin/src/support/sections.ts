import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { Inbox } from './Inbox.tsx';
import { SUPPORT_TEXT } from './support.text.ts';

/** The customer-service chat's inbox (admin and support). */
export const supportSections: readonly Section[] = [
  {
    label: (language) => SUPPORT_TEXT[language].nav,
    path: '/support',
    roles: adminCalls.supportInbox.roles,
    screens: [
      { path: '/support', Screen: Inbox },
      { path: '/support/:id', Screen: Inbox },
    ],
  },
];
