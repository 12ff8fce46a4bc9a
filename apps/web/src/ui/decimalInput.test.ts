import { describe, expect, it } from 'vitest';
import { normalizeDecimal } from './decimalInput.ts';

describe('typed numbers', () => {
  it('reads a comma as the decimal point, Arabic-Indic digits and spaces', () => {
    expect(normalizeDecimal('1,5')).toBe('1.5');
    expect(normalizeDecimal('٦٥٠٠٠٫٥')).toBe('65000.5');
    expect(normalizeDecimal(' 65 000.25 ')).toBe('65000.25');
  });
});
