import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { OperatorSettings } from './OperatorSettings.tsx';
import { OPERATOR_TEXT } from './operator.text.ts';

/** Who operates the platform, as customers read it. */
export const operatorSections: readonly Section[] = [
  {
    label: (language) => OPERATOR_TEXT[language].nav.settings,
    path: '/settings/operator',
    roles: adminCalls.getOperatorSettings.roles,
    screens: [{ path: '/settings/operator', Screen: OperatorSettings }],
  },
];
