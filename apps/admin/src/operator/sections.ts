import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { OperatorSettings } from './OperatorSettings.tsx';

/** Who operates the platform, as customers read it. */
export const operatorSections: readonly Section[] = [
  {
    name: 'operator',
    path: '/settings/operator',
    roles: adminCalls.getOperatorSettings.roles,
    screens: [{ path: '/settings/operator', Screen: OperatorSettings }],
  },
];
