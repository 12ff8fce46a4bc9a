import { useBackOffice } from '../context.ts';
import { byLanguage } from '../text.ts';

/** The swap screens' text in the back office's ten languages: locales/<language>.json. */
export type SwapText = typeof import('./locales/en.json');

export const SWAP_TEXT = byLanguage<SwapText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);

/** The swap screens' text in the staff member's language. */
export function useSwapText(): SwapText {
  return SWAP_TEXT[useBackOffice().language];
}
