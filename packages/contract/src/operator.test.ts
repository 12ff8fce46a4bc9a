import { describe, expect, it } from 'vitest';
import { localizedFor } from './languages.ts';
import { isPublicHttpsUrl, operatorSettings } from './operator.ts';

const base = { leaders: [], partners: [], social: [] };
const issues = (value: unknown) => {
  const parsed = operatorSettings.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`);
};

describe('operator settings contract', () => {
  it('accepts nothing set (the sandbox) and a complete identity', () => {
    expect(issues(base)).toEqual([]);
    expect(
      issues({
        ...base,
        companyName: 'Harbour Markets Ltd',
        registrationCountry: 'cy',
        regulator: 'CySEC',
        licenceNumber: '388/20',
        registerUrl: 'https://www.cysec.gov.cy/en-GB/entities/investment-firms/cypriot/',
        supportEmail: 'Help@Harbour-Markets.com',
        supportPhone: '+357 25 000 000',
        riskPercent: '74.5',
        riskAsOf: '2026-09-30',
        leaders: [{ name: 'Dana Whitfield', role: { de: 'Geschäftsführerin' }, photoUrl: '/team/dana.jpg' }],
        social: [{ network: 'x', url: 'https://x.com/harbour' }],
      }),
    ).toEqual([]);
    const parsed = operatorSettings.parse({
      ...base,
      companyName: 'A Ltd',
      registrationCountry: 'cy',
      supportEmail: 'A@B.com',
    });
    expect(parsed.registrationCountry).toBe('CY');
    expect(parsed.supportEmail).toBe('a@b.com');
  });

  it('refuses placeholders, test domains, foreign pictures and figures without their company or date', () => {
    expect(issues({ ...base, companyName: '[registered company name]' })).toEqual(['companyName:plain text']);
    expect(issues({ ...base, supportEmail: 'support@swx.localhost' })).toEqual(['supportEmail:email']);
    expect(issues({ ...base, appStoreUrl: 'http://apps.apple.com/app' })).toEqual([
      'appStoreUrl:https address',
    ]);
    expect(
      issues({ ...base, companyName: 'A', regulator: 'R', riskPercent: '101', riskAsOf: '2026-02-30' }),
    ).toEqual(['riskPercent:percent', 'riskAsOf:date']);
    expect(issues({ ...base, regulator: 'CySEC' })).toEqual(['companyName:company name first']);
    expect(issues({ ...base, companyName: 'A', licenceNumber: '1' })).toEqual(['regulator:regulator first']);
    expect(issues({ ...base, companyName: 'A', riskPercent: '74' })).toEqual([
      'riskAsOf:percent and date together',
    ]);
    expect(
      issues({
        ...base,
        leaders: [{ name: 'Dana', role: {}, photoUrl: 'https://cdn.example.net/dana.jpg' }],
      }),
    ).toEqual(['leaders.0.role:at least one language', 'leaders.0.photoUrl:path on this site']);
    expect(
      issues({
        ...base,
        social: [
          { network: 'x', url: 'https://x.com/a' },
          { network: 'x', url: 'https://x.com/b' },
        ],
      }),
    ).toEqual(['social:one link per network']);
  });

  it('checks https addresses on public hosts only', () => {
    expect(isPublicHttpsUrl('https://play.google.com/store/apps/details?id=com.example')).toBe(true);
    for (const bad of [
      'https://swx.localhost/',
      'https://user:pw@x.com/',
      'javascript:alert(1)',
      'https://host/',
      'https://a.test/',
    ])
      expect(isPublicHttpsUrl(bad), bad).toBe(false);
  });

  it('gives a reader their language, else English, else the first given', () => {
    expect(localizedFor({ en: 'CEO', de: 'Geschäftsführerin' }, 'de')).toBe('Geschäftsführerin');
    expect(localizedFor({ en: 'CEO', de: 'Geschäftsführerin' }, 'ja')).toBe('CEO');
    expect(localizedFor({ fr: 'Directrice' }, 'ja')).toBe('Directrice');
    expect(localizedFor(undefined, 'ja')).toBeUndefined();
  });
});
