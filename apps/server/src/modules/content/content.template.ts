import { isRtl, LANGUAGE_TAGS, type Language, localizedFor, type OperatorSettings } from '@swx/contract';

/**
 * The content pages' text is the help centre's markup (the contract's `markup.ts`) and a template
 * filled from the operator settings (DESIGN §2 rule 9), so what is not set is not shown:
 *
 * - `{name}` is replaced by a setting; a line naming a setting that is not set is left out;
 * - a line (a heading's included) starting with `{?name}` is kept only when the setting is set,
 *   `{?!name}` only when it is not (`{?sandbox}`: a sandbox run with no operator named);
 * - blocks are separated by blank lines; a `## heading` block opens a section, and a section with
 *   no line left (or whose heading's condition fails) is left out with its heading.
 */
export type TemplateValues = Readonly<Record<string, string | undefined>>;

/** Chinese and Japanese sentences follow each other without a space. */
export function sentenceJoiner(language: Language): string {
  return language === 'ja' || language === 'zh' || language === 'hk' ? '' : ' ';
}

/** The settings as template values, formatted for the reader's language. */
export function operatorValues(
  settings: OperatorSettings & { sandbox: boolean },
  language: Language,
): TemplateValues {
  const tag = LANGUAGE_TAGS[language];
  const country = settings.registrationCountry
    ? new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' }).of(settings.registrationCountry)
    : undefined;
  // In right-to-left text each value is isolated (FSI … PDI), so "12 Quay Street" keeps its order.
  const isolate = (value: string | undefined) =>
    value === undefined || !isRtl(language) ? value : `\u2068${value}\u2069`;
  const values: Record<string, string | undefined> = {
    company: settings.companyName,
    registrationNumber: settings.registrationNumber,
    country,
    address: settings.registeredAddress,
    regulator: settings.regulator,
    licence: settings.licenceNumber,
    registerUrl: settings.registerUrl,
    supportEmail: settings.supportEmail,
    supportPhone: settings.supportPhone,
    supportHours: localizedFor(settings.supportHours, language),
    riskPercent: settings.riskPercent
      ? new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 2 }).format(
          // A decimal string scaled by exponent: Intl formats it exactly, no float on the way.
          `${settings.riskPercent}E-2` as Intl.StringNumericLiteral,
        )
      : undefined,
    riskAsOf: settings.riskAsOf
      ? new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(
          new Date(`${settings.riskAsOf}T00:00:00Z`),
        )
      : undefined,
  };
  return {
    ...Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isolate(value)])),
    sandbox: settings.sandbox ? 'yes' : undefined,
  };
}

const CONDITIONS = /^(?:\{\?!?[A-Za-z]+\})+/;
const TOKEN = /\{([A-Za-z]+)\}/g;

const isSet = (values: TemplateValues, name: string) => {
  const value = values[name];
  return value !== undefined && value !== '';
};

/** The line with its settings filled in, or null when a condition or a setting it names is not met. */
function renderLine(line: string, values: TemplateValues): string | null {
  const conditions = CONDITIONS.exec(line)?.[0] ?? '';
  for (const [, negated, name] of conditions.matchAll(/\{\?(!?)([A-Za-z]+)\}/g)) {
    if (isSet(values, name ?? '') === (negated === '!')) return null;
  }
  const text = line.slice(conditions.length);
  for (const [, name] of text.matchAll(TOKEN)) if (!isSet(values, name ?? '')) return null;
  return text.replace(TOKEN, (_, name: string) => values[name] ?? '');
}

const LIST_LINE = /^(?:[-*]|\d{1,3}\.)\s+/;

/**
 * Renders a body into markup. The lines kept in a paragraph are joined into one line with
 * `joiner` (a space, or nothing for Chinese and Japanese); a list keeps its lines.
 */
export function renderTemplate(body: string, values: TemplateValues, joiner = ' '): string {
  const blocks: string[] = [];
  let sectionShown = true;
  let heading: string | null = null;
  for (const block of body.split(/\n{2,}/)) {
    const lines = block.split('\n');
    if (lines.length === 1 && /^#{2,3}\s/.test((lines[0] ?? '').replace(CONDITIONS, ''))) {
      heading = renderLine(lines[0] ?? '', values);
      sectionShown = heading !== null;
      continue;
    }
    if (!sectionShown) continue;
    const kept = lines
      .map((line) => renderLine(line, values))
      .filter((line): line is string => line !== null && line.trim() !== '');
    if (kept.length === 0) continue;
    if (heading !== null) blocks.push(heading);
    heading = null;
    blocks.push(kept.join(kept.every((line) => LIST_LINE.test(line)) ? '\n' : joiner));
  }
  return blocks.join('\n\n');
}
