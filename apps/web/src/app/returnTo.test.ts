import { describe, expect, it } from 'vitest';
import { loginAfterExpiry, safeReturnPath } from './returnTo.ts';

describe('return after login (no open redirect)', () => {
  it('keeps same-origin in-app paths with their query and hash', () => {
    expect(safeReturnPath('/profile/balance')).toBe('/profile/balance');
    expect(safeReturnPath('/cruuency?id=3&type=2#ticket')).toBe('/cruuency?id=3&type=2#ticket');
    expect(safeReturnPath('/profile/../market')).toBe('/market');
  });

  it('refuses other origins, schemes and tricks browsers read as another host', () => {
    for (const raw of [
      'https://evil.example/',
      '//evil.example/profile',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      ' /profile',
      '/\t/evil.example',
      'profile',
      '',
      null,
      undefined,
      `/${'a'.repeat(2100)}`,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBeNull();
    }
    // An encoded character stays part of a path on this origin.
    expect(safeReturnPath('/%0a/evil')).toBe('/%0a/evil');
  });

  it('never returns to the login pages themselves', () => {
    expect(safeReturnPath('/pass/login?return=/profile')).toBeNull();
    expect(safeReturnPath('/pass/register')).toBeNull();
    expect(safeReturnPath('/api/loginCallback/google?code=x')).toBeNull();
  });

  it('sends an expired session to the login page with the reason and the page to come back to', () => {
    expect(loginAfterExpiry({ pathname: '/profile/balance', search: '?asset=USDT', hash: '' })).toBe(
      '/pass/login?expired=1&return=%2Fprofile%2Fbalance%3Fasset%3DUSDT',
    );
    expect(loginAfterExpiry({ pathname: '/', search: '', hash: '' })).toBe('/pass/login?expired=1');
  });
});
