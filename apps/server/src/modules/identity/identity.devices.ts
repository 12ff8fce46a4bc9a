import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PurposeKeys } from '../../platform/keys.ts';

/**
 * What the sessions list shows of a device: browser and OS summarised from the user agent (no
 * version beyond the major one, no build details), and the address with its host part masked.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\b(?:HeadlessChrome|Chrome|Chromium)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)(?:\.\d+)*.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function summariseUserAgent(userAgent: string): { browser: string; os: string } {
  let browser = '';
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? '';
  return { browser, os };
}

/** IPv4: the last octet hidden (203.0.113.*); IPv6: the first three groups kept (2001:db8:1::*). */
export function maskIp(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.*`;
  if (ip.includes(':')) {
    const [head = ''] = ip.split('::');
    const groups = head.split(':').filter(Boolean).slice(0, 3);
    return groups.length > 0 ? `${groups.join(':')}::*` : '::*';
  }
  return '';
}

/**
 * Device tokens: a device that signed in to an account gets one (an HttpOnly cookie), and while
 * the account is under attack it keeps signing in: its attempts count against its own limit, not
 * the account-wide one an attacker fills. A token is `<userId>.<nonce>.<key id>.<mac>`, the mac an
 * HMAC-SHA-256 under the device tokens' key of that id (platform/keys.ts), so the server keeps
 * nothing and a token is only good for the account it was issued to. The nonce names the device in
 * its rate limit. A token of the previous master's key id stays good while MASTER_KEY_PREVIOUS is
 * set, and is issued again under the current one at its next sign-in.
 */
export const DEVICE_COOKIE = 'swx_device';
export const DEVICE_TTL_SECONDS = 180 * 24 * 3600;

function deviceMac(key: Buffer, userId: number, nonce: string): string {
  return createHmac('sha256', key).update(`${userId}.${nonce}`).digest('base64url');
}

export function newDeviceToken(
  keys: PurposeKeys,
  userId: number,
  nonce = randomBytes(16).toString('base64url'),
): string {
  const { id, key } = keys.current;
  return `${userId}.${nonce}.${id}.${deviceMac(key, userId, nonce)}`;
}

/** The device of a token when its mac is right; null for anything else. */
export function readDeviceToken(
  keys: PurposeKeys,
  token: string | null | undefined,
): { userId: number; nonce: string } | null {
  const match = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{43})$/.exec(
    token ?? '',
  );
  if (!match) return null;
  const key = keys.byId(match[3] as string);
  if (!key) return null;
  const userId = Number(match[1]);
  const nonce = match[2] as string;
  const expected = Buffer.from(deviceMac(key, userId, nonce));
  const given = Buffer.from(match[4] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, nonce } : null;
}
