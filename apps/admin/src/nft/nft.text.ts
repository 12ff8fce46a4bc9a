import { useBackOffice } from '../context.ts';
import { byLanguage } from '../text.ts';

/** The charity NFT screens' text in the back office's ten languages: locales/<language>.json. */
export type NftText = typeof import('./locales/en.json');

export const NFT_TEXT = byLanguage<NftText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);

/** The NFT screens' text in the staff member's language. */
export function useNftText(): NftText {
  return NFT_TEXT[useBackOffice().language];
}
