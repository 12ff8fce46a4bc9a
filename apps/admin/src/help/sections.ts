import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { HelpEditor } from './HelpEditor.tsx';
import { HelpList } from './HelpList.tsx';
import { HelpNew } from './HelpNew.tsx';
import { HELP_TEXT } from './help.text.ts';

/** The help centre's FAQ articles and notices, as staff write them. */
export const helpSections: readonly Section[] = [
  {
    label: (language) => HELP_TEXT[language].nav,
    path: '/help',
    roles: adminCalls.listHelpArticles.roles,
    screens: [
      { path: '/help', Screen: HelpList },
      { path: '/help/new', Screen: HelpNew },
      { path: '/help/:id', Screen: HelpEditor },
    ],
  },
];
