import { describe, expect, it } from 'vitest';
import { KeyRing } from '../../platform/keys.ts';
import { maskIp, summariseUserAgent } from './identity.devices.ts';
import { securityMail } from './identity.mail.ts';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  openSecret,
  otpauthUri,
  sealSecret,
  totpCode,
} from './identity.totp.ts';

const RFC_SECRET = Buffer.from('12345678901234567890');

describe('TOTP (RFC 4226 / RFC 6238, SHA-1)', () => {
  it('matches the RFC 4226 HOTP test values', () => {
    expect(Array.from({ length: 10 }, (_, i) => hotp(RFC_SECRET, i))).toEqual([
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ]);
  });

  it('matches the RFC 6238 SHA-1 test values (8 digits) and their 6-digit tails', () => {
    const vectors: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) {
      expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
      expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(2));
    }
  });

  it('encodes and decodes base32 as RFC 4648 (no padding)', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of cases) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    const secret = newTotpSecret();
    expect(base32Encode(secret)).toMatch(/^[A-Z2-7]{32}$/);
    expect(
      base32Decode(
        base32Encode(secret)
          .toLowerCase()
          .replace(/(.{4})/g, '$1 '),
      ),
    ).toEqual(secret);
    expect(() => base32Decode('MZ1W')).toThrow();
  });

  it('accepts one step either side, nothing further, and never a step at or before the last one used', () => {
    const secret = newTotpSecret();
    const now = 1_750_000_000_000;
    const step = Math.floor(now / 30_000);
    const at = (s: number) => hotp(secret, s);
    expect(matchTotp(secret, at(step), now, 0)).toBe(step);
    expect(matchTotp(secret, at(step - 1), now, 0)).toBe(step - 1);
    expect(matchTotp(secret, at(step + 1), now, 0)).toBe(step + 1);
    // Codes two steps away are out of the window (unless they collide with a near one by chance).
    if (![at(step - 1), at(step), at(step + 1)].includes(at(step + 2)))
      expect(matchTotp(secret, at(step + 2), now, 0)).toBeNull();
    if (![at(step - 1), at(step), at(step + 1)].includes(at(step - 2)))
      expect(matchTotp(secret, at(step - 2), now, 0)).toBeNull();
    // Replay: the step already used, or an older one, is refused.
    expect(matchTotp(secret, at(step), now, step)).toBeNull();
    expect(matchTotp(secret, at(step - 1), now, step - 1)).toBeNull();
    expect(matchTotp(secret, at(step + 1), now, step)).toBe(step + 1);
    expect(matchTotp(secret, '12345', now, 0)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now, 0)).toBeNull();
  });

  it('seals secrets with AES-256-GCM bound to the user and its key id, and refuses another key or user', () => {
    const key = new KeyRing(Buffer.alloc(32, 7)).purpose('totp-seal');
    const secret = newTotpSecret();
    const sealed = sealSecret(key, 42, secret);
    expect(sealed).toMatch(/^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed.split('.')[1]).toBe(key.current.id);
    expect(sealed).not.toContain(base32Encode(secret));
    expect(openSecret(key, 42, sealed)).toEqual({ secret: Buffer.from(secret), stale: false });
    expect(() => openSecret(key, 43, sealed)).toThrow();
    expect(() => openSecret(key, 42, sealed, 'staff-totp')).toThrow();
    expect(() => openSecret(new KeyRing(Buffer.alloc(32, 8)).purpose('totp-seal'), 42, sealed)).toThrow();
    // Another purpose of the same master is another key.
    expect(() =>
      openSecret(new KeyRing(Buffer.alloc(32, 7)).purpose('staff-totp-seal'), 42, sealed),
    ).toThrow();
    expect(sealSecret(key, 42, secret)).not.toBe(sealed); // a fresh IV every time
  });

  it('opens a secret sealed under the previous master while it is kept, as stale; then refuses it', () => {
    const old = Buffer.alloc(32, 7);
    const sealed = sealSecret(new KeyRing(old).purpose('totp-seal'), 42, newTotpSecret());
    const rotated = new KeyRing(Buffer.alloc(32, 8), old).purpose('totp-seal');
    expect(openSecret(rotated, 42, sealed).stale).toBe(true);
    expect(() => openSecret(new KeyRing(Buffer.alloc(32, 8)).purpose('totp-seal'), 42, sealed)).toThrow(
      /no longer accepted/,
    );
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/SWX:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'SWX',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });

  it('makes recovery codes of 80 random bits in four groups, compared without case or dashes', () => {
    const codes = new Set(Array.from({ length: 50 }, newRecoveryCode));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}$/);
    expect(normalizeRecoveryCode(' abcd-efgh jkLM-npqr ')).toBe('ABCDEFGHJKLMNPQR');
  });
});

describe('device summary', () => {
  it('names browser and system from common user agents', () => {
    const cases: [string, { browser: string; os: string }][] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
        { browser: 'Chrome 126', os: 'Windows' },
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
        { browser: 'Edge 126', os: 'Windows' },
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        { browser: 'Safari 17', os: 'iOS' },
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
        { browser: 'Firefox 128', os: 'macOS' },
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
        { browser: 'Chrome 126', os: 'Android' },
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
        { browser: 'Chrome 131', os: 'Linux' },
      ],
      ['curl/8.5.0', { browser: '', os: '' }],
      ['', { browser: '', os: '' }],
    ];
    for (const [agent, expected] of cases) expect(summariseUserAgent(agent), agent).toEqual(expected);
  });

  it('masks the host part of an address', () => {
    expect(maskIp('203.0.113.9')).toBe('203.0.113.*');
    expect(maskIp('::ffff:198.51.100.23')).toBe('198.51.100.*');
    expect(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::*');
    expect(maskIp('2001:db8::1')).toBe('2001:db8::*');
    expect(maskIp('::1')).toBe('::*');
    expect(maskIp('')).toBe('');
  });
});

describe('security mail', () => {
  it('says what happened, when and from where, in the reader’s language', () => {
    const facts = {
      time: new Date('2025-03-04T05:06:07Z'),
      device: 'Firefox 128, macOS',
      ip: '203.0.113.*',
      link: 'https://swx.test/pass/lock#ab12',
    };
    const en = securityMail('en', 'passwordChanged', facts);
    expect(en.subject).toBe('Your SWX password was changed');
    expect(en.text).toContain('2025-03-04 05:06 (UTC) from Firefox 128, macOS, address 203.0.113.*');
    expect(en.text).toContain('Every other device was signed out');
    expect(en.text).toContain(
      'lock your account now with this link (it works once, for 7 days): https://swx.test/pass/lock#ab12',
    );
    expect(securityMail('en', 'newDevice', { ...facts, device: '', ip: '' }).text).toContain(
      'from a new device on 2025-03-04 05:06 (UTC): unknown, address unknown',
    );
    expect(
      securityMail('ar', 'addressAdded', { ...facts, network: 'USDT (EVM)', address: '0xabc' }).text,
    ).toContain('0xabc');
    expect(securityMail('de', 'totpEnabled', facts).subject).toMatch(/Zwei-Schritt/);
    expect(securityMail('zh', 'totpDisabled', facts).text).toContain('203.0.113.*');
  });
});
