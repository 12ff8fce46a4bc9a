import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { FourEyesSettings } from './FourEyesSettings.tsx';
import { FOUR_EYES_TEXT } from './fourEyes.text.ts';

/** The four-eyes thresholds. */
export const fourEyesSections: readonly Section[] = [
  {
    label: (language) => FOUR_EYES_TEXT[language].nav.thresholds,
    path: '/settings/four-eyes',
    roles: adminCalls.getFourEyes.roles,
    screens: [{ path: '/settings/four-eyes', Screen: FourEyesSettings }],
  },
];
