import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { Alerts } from './Alerts.tsx';
import { ALERTS_TEXT } from './alerts.text.ts';

/** Staff alerts to acknowledge and resolve. */
export const alertsSections: readonly Section[] = [
  {
    label: (language) => ALERTS_TEXT[language].nav.alerts,
    path: '/alerts',
    roles: adminCalls.listStaffAlerts.roles,
    screens: [{ path: '/alerts', Screen: Alerts }],
  },
];
