import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { FourEyesSettings } from './FourEyesSettings.tsx';

/** The four-eyes thresholds. */
export const fourEyesSections: readonly Section[] = [
  {
    name: 'fourEyes',
    path: '/settings/four-eyes',
    roles: adminCalls.getFourEyes.roles,
    screens: [{ path: '/settings/four-eyes', Screen: FourEyesSettings }],
  },
];
