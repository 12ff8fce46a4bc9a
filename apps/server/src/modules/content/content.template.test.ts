import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_OPERATOR_SETTINGS, LANGUAGES, markupIssues, type OperatorSettings } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { HARBOUR_IDENTITY } from '../../../../../tests/support/operator.ts';
import { operatorValues, renderTemplate, sentenceJoiner } from './content.template.ts';

const FULL: OperatorSettings & { sandbox: boolean } = {
  sandbox: false,
  ...HARBOUR_IDENTITY,
  supportHours: { en: 'Mon–Fri 08:00–18:00 CET', de: 'Mo–Fr 08:00–18:00 MEZ' },
  leaders: [],
  partners: [],
  social: [],
};

const seed = (language: string) =>
  (
    JSON.parse(readFileSync(join(import.meta.dirname, 'seed', `${language}.json`), 'utf8')) as {
      items: { slug: string; body: string }[];
    }
  ).items;

describe('content templates', () => {
  it('keeps a line only when its settings and conditions hold, and drops an emptied block with its heading', () => {
    const body = [
      '{?sandbox}## Sandbox',
      'No firm runs this.',
      '## Who we are',
      '{?company}Run by {company}.\nCompany number: {registrationNumber}.\nWe trade.',
      '- Email: {supportEmail}\n- Phone: {supportPhone}',
      '## Contact',
      'Email: {supportEmail}.\nPhone: {supportPhone}.',
    ].join('\n\n');
    expect(renderTemplate(body, { sandbox: 'yes' })).toBe(
      '## Sandbox\n\nNo firm runs this.\n\n## Who we are\n\nWe trade.',
    );
    expect(renderTemplate(body, { company: 'Acme Ltd', supportEmail: 'a@acme.com' })).toBe(
      '## Who we are\n\nRun by Acme Ltd. We trade.\n\n- Email: a@acme.com\n\n## Contact\n\nEmail: a@acme.com.',
    );
    // What comes out is markup the help centre's rules accept.
    expect(markupIssues(renderTemplate(body, { company: 'Acme Ltd' }))).toEqual([]);
  });

  it('formats the risk figure, its date and the country in the reader language', () => {
    const en = operatorValues(FULL, 'en');
    expect(en.riskPercent).toBe('74.5%');
    expect(en.riskAsOf).toBe('September 30, 2026');
    expect(en.country).toBe('Cyprus');
    expect(operatorValues(FULL, 'fr').riskPercent).toMatch(/^74,5\s%$/);
    expect(operatorValues(FULL, 'de').country).toBe('Zypern');
    expect(operatorValues(FULL, 'de').supportHours).toBe('Mo–Fr 08:00–18:00 MEZ');
    expect(operatorValues(FULL, 'ja').supportHours).toBe('Mon–Fri 08:00–18:00 CET');
  });

  it.each(LANGUAGES)(
    '%s: the seeded pages show no placeholder, and the sandbox statement only with nothing set',
    (language) => {
      for (const item of seed(language)) {
        const sandbox = renderTemplate(
          item.body,
          operatorValues({ ...EMPTY_OPERATOR_SETTINGS, sandbox: true }, language),
          sentenceJoiner(language),
        );
        const operated = renderTemplate(item.body, operatorValues(FULL, language), sentenceJoiner(language));
        // A production run with nothing set: no identity, and no claim to be a sandbox either.
        const unnamed = renderTemplate(
          item.body,
          operatorValues({ ...EMPTY_OPERATOR_SETTINGS, sandbox: false }, language),
          sentenceJoiner(language),
        );
        for (const text of [sandbox, operated, unnamed]) {
          expect(text, `${language} ${item.slug}`).not.toMatch(/[[\]{}]/);
          expect(markupIssues(text), `${language} ${item.slug}`).toEqual([]);
          expect(text).not.toContain('.localhost');
        }
        const statement = seed(language)[0]?.body.split('\n')[2] ?? '';
        expect(statement.length).toBeGreaterThan(20);
        expect(sandbox, `${language} ${item.slug}`).toContain(statement);
        expect(operated).not.toContain(statement);
        expect(unnamed).not.toContain(statement);
      }
      const risk = renderTemplate(
        seed(language).find((item) => item.slug === 'risk')?.body ?? '',
        operatorValues(FULL, language),
      );
      expect(risk).toContain(operatorValues(FULL, language).riskPercent);
      const legal = renderTemplate(
        seed(language).find((item) => item.slug === 'legal')?.body ?? '',
        operatorValues(FULL, language),
      );
      for (const value of ['Harbour Markets Ltd', 'HE 412233', '388/20', 'help@harbour-markets.com'])
        expect(legal, `${language} legal`).toContain(value);
    },
  );
});
