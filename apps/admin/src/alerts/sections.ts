import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { Alerts } from './Alerts.tsx';

/** Staff alerts to acknowledge and resolve. */
export const alertsSections: readonly Section[] = [
  {
    name: 'alerts',
    path: '/alerts',
    roles: adminCalls.listStaffAlerts.roles,
    screens: [{ path: '/alerts', Screen: Alerts }],
  },
];
