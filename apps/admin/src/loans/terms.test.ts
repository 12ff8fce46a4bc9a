import { describe, expect, it } from 'vitest';
import { termsOf } from './terms.ts';

describe('loan product terms as typed by staff', () => {
  it('reads days separated by commas or spaces, each once, in order', () => {
    expect(termsOf('30, 7 14')).toEqual([7, 14, 30]);
    expect(termsOf('7,7,14')).toEqual([7, 14]);
    expect(termsOf(' 90 ')).toEqual([90]);
    expect(termsOf('7، 14، 30')).toEqual([7, 14, 30]);
    expect(termsOf('7、14，30')).toEqual([7, 14, 30]);
  });

  it('refuses what is not whole days', () => {
    expect(termsOf('')).toBeNull();
    expect(termsOf('7.5')).toBeNull();
    expect(termsOf('7, -14')).toBeNull();
    expect(termsOf('1000')).toBeNull();
    expect(termsOf('a week')).toBeNull();
  });
});
