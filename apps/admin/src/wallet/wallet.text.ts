import { useBackOffice } from '../context.ts';
import { byLanguage } from '../text.ts';

/** The wallet screens' text in the back office's ten languages: locales/<language>.json. */
export type WalletText = typeof import('./locales/en.json');

export const WALLET_TEXT = byLanguage<WalletText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);

/** The wallet screens' text in the staff member's language. */
export function useWalletText(): WalletText {
  return WALLET_TEXT[useBackOffice().language];
}
