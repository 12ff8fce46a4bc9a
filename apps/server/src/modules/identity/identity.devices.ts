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
