import type { Language } from '@swx/contract';
import { switchLanguage } from '../app/i18n.ts';
import { setState } from '../app/state.ts';

/**
 * A language change saves the language, switches the interface, and (through the language in
 * every content query key) reloads the content lists (spec §4).
 */
export async function changeLanguage(language: Language): Promise<void> {
  await switchLanguage(language);
  setState({ language });
}
