import { useBackOffice } from '../context.ts';
import { byLanguage } from '../text.ts';

/** The help-centre editor's text in the back office's ten languages: locales/<language>.json. */
export type HelpText = typeof import('./locales/en.json');

export const HELP_TEXT = byLanguage<HelpText>(
  import.meta.glob('./locales/*.json', { eager: true, import: 'default' }),
);

/** The editor's text in the staff member's language. */
export function useHelpText(): HelpText {
  return HELP_TEXT[useBackOffice().language];
}

/** What a refusal's issues say, in the staff member's words (10026 `[{path, issue}]`). */
export function issueText(t: HelpText, issues: readonly { issue: string }[]): string {
  return issues
    .map(({ issue }) => (t.issues as Record<string, string>)[issue] ?? '')
    .filter(Boolean)
    .join(' ');
}
