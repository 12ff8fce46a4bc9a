import { describe, expect, it } from 'vitest';
import { inviteCodeFrom } from './inviteCode.ts';

describe('an invite code from the page address', () => {
  it('is read case-blind and trimmed, as the server reads it', () => {
    expect(inviteCodeFrom('?invite=abcd2345')).toBe('ABCD2345');
    expect(inviteCodeFrom('?invite=%20ABCD2345%20')).toBe('ABCD2345');
    expect(inviteCodeFrom('?return=%2Fprofile&invite=XYZW2345')).toBe('XYZW2345');
  });

  it('is empty without one, and never longer than a field should hold', () => {
    expect(inviteCodeFrom('')).toBe('');
    expect(inviteCodeFrom('?invite=')).toBe('');
    expect(inviteCodeFrom(`?invite=${'A'.repeat(200)}`)).toHaveLength(32);
  });
});
