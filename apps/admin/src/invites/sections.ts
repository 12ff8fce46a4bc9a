import { adminCalls } from '@swx/contract';
import type { Section } from '../sections.ts';
import { InviteLinks } from './InviteLinks.tsx';
import { InvitePayouts } from './InvitePayouts.tsx';
import { InviteSettings } from './InviteSettings.tsx';
import { INVITE_TEXT } from './invites.text.ts';

/** Invite friends: the programme's terms, the links (and their freezes) and the payouts, under one entry. */
export const invitesSections: readonly Section[] = [
  {
    label: (language) => INVITE_TEXT[language].nav.invites,
    path: '/invites',
    roles: adminCalls.listInviteLinks.roles,
    screens: [
      { path: '/invites', Screen: InviteSettings },
      { path: '/invites/links', Screen: InviteLinks },
      { path: '/invites/payouts', Screen: InvitePayouts },
    ],
  },
];
