import { USERNAME } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config.ts';
import { socialUserName } from './identity.social.ts';

describe('socialUserName', () => {
  const name = (email: string | null, preferredUsername: string | null = null, full: string | null = null) =>
    socialUserName({ email, preferredUsername, name: full });

  it('takes the email’s local part, then the preferred username, then the name', () => {
    expect(name('jane.doe@example.com', 'jd', 'Jane')).toBe('jane.doe');
    expect(name(null, 'jdoe', 'Jane Doe')).toBe('jdoe');
    expect(name(null, null, 'Jane Doe')).toBe('Jane_Doe');
  });

  it('drops accents, replaces other characters, and always fits the username rule with room for a suffix', () => {
    expect(name('josé.müller@example.com')).toBe('jose.muller');
    expect(name('a+b@example.com')).toBe('a_b');
    expect(name('x@example.com', null, '王小明')).toBe('user');
    expect(name('.._@example.com')).toBe('user');
    const long = name(`${'a'.repeat(40)}@example.com`);
    expect(long).toHaveLength(24);
    for (const value of [long, name('josé@x.io'), name(null, null, 'Jane Doe'), `${long}_99999`])
      expect(value).toMatch(USERNAME);
  });
});

describe('social provider settings', () => {
  const google = {
    SOCIAL_GOOGLE_ISSUER: 'https://accounts.google.com',
    SOCIAL_GOOGLE_CLIENT_ID: 'client-id',
    SOCIAL_GOOGLE_CLIENT_SECRET: 'client-secret',
  };

  it('offers nothing by default, and only the providers with all three settings', () => {
    expect(loadConfig({}).socialProviders).toEqual([]);
    expect(loadConfig(google).socialProviders).toEqual([
      {
        name: 'google',
        label: 'Google',
        issuer: 'https://accounts.google.com',
        clientId: 'client-id',
        clientSecret: 'client-secret',
      },
    ]);
    expect(
      loadConfig({
        SOCIAL_MICROSOFT_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0',
        SOCIAL_MICROSOFT_CLIENT_ID: 'id',
        SOCIAL_MICROSOFT_CLIENT_SECRET: 'secret',
        SOCIAL_MICROSOFT_LABEL: 'Work account',
      }).socialProviders.map((p) => [p.name, p.label]),
    ).toEqual([['microsoft', 'Work account']]);
  });

  it('refuses a half-configured provider and a plain-http issuer off the loopback address', () => {
    expect(() => loadConfig({ SOCIAL_GOOGLE_ISSUER: google.SOCIAL_GOOGLE_ISSUER })).toThrow(ConfigError);
    expect(() => loadConfig({ ...google, SOCIAL_GOOGLE_ISSUER: 'http://accounts.example.com' })).toThrow(
      /https/,
    );
    expect(
      loadConfig({ ...google, SOCIAL_GOOGLE_ISSUER: 'http://127.0.0.1:4000' }).socialProviders,
    ).toHaveLength(1);
  });
});
