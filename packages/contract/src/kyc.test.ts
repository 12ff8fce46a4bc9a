import { describe, expect, it } from 'vitest';
import { COUNTRIES, PHONE_CODES, phoneCodeOfCountry } from './kyc.ts';

describe('the KYC area code follows the country', () => {
  it('names the country code of each country whose code is offered', () => {
    expect(phoneCodeOfCountry('DE')).toBe('+49');
    expect(phoneCodeOfCountry('JP')).toBe('+81');
    expect(phoneCodeOfCountry('CA')).toBe('+1');
    expect(phoneCodeOfCountry('HK')).toBe('+852');
    expect(phoneCodeOfCountry('JE')).toBe('+44');
    expect(phoneCodeOfCountry('ZA')).toBeNull(); // +27 is not offered
    expect(phoneCodeOfCountry('toString')).toBeNull();
  });

  it('maps only listed countries to offered codes, and every offered code to a country', () => {
    const mapped = new Set<string>();
    for (const country of COUNTRIES) {
      const code = phoneCodeOfCountry(country);
      if (code === null) continue;
      expect(PHONE_CODES).toContain(code);
      mapped.add(code);
    }
    expect([...mapped].sort()).toEqual([...PHONE_CODES].sort());
  });
});
