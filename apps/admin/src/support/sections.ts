import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { AgentLimits } from './AgentLimits.tsx';
import { Inbox } from './Inbox.tsx';
import { SUPPORT_TEXT } from './support.text.ts';

/** The customer-service chat's inbox (admin and support), and the agents' limits (supportLimits). */
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
  {
    label: (language) => SUPPORT_TEXT[language].limits.nav,
    path: '/support-agents',
    roles: adminCalls.setSupportAgentLimit.roles,
    screens: [{ path: '/support-agents', Screen: AgentLimits }],
  },
];
