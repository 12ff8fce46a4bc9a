import { useBackOffice } from '../context.ts';
import { byLanguage } from '../text.ts';

/** The invite programme screens' text in the back office's ten languages: locales/<language>.json. */
export type InviteText = typeof import('./locales/en.json');

export const INVITE_TEXT = byLanguage<InviteText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);

/** The invite programme screens' text in the staff member's language. */
export function useInviteText(): InviteText {
  return INVITE_TEXT[useBackOffice().language];
}
