import { LANGUAGES } from '@swx/contract';
import { describe, expect, it } from 'vitest';
import { parseFeed } from './papers.ics.testing.ts';
import { calendarFeed, foldLine, utcStamp } from './papers.ics.ts';
import { type Obligation, obligationEvents } from './papers.obligations.ts';

/** The feed's syntax (RFC 5545), read back with the independent reader of papers.ics.testing.ts. */
describe('the obligations feed’s syntax', () => {
  const event = (summary: string, description: string) => ({
    uid: 'loanDue-7-42@papers.swx',
    start: new Date('2027-04-08T00:00:00.000Z'),
    end: new Date('2027-04-09T00:00:00.000Z'),
    summary,
    description,
  });

  it('escapes backslash, semicolon, comma and line breaks, and reads back to the same text', () => {
    const summary = 'Loan repayment due: A, B; C\\D';
    const description = 'Repay 1,011.500000 USDT\nby the end of 2027-04-08 (UTC); loan 7.';
    const feed = calendarFeed(
      'SWX, obligations',
      'en',
      [event(summary, description)],
      new Date('2027-03-12T08:00:00Z'),
    );
    expect(feed).toContain('SUMMARY;LANGUAGE=en:Loan repayment due: A\\, B\\; C\\\\D\r\n');
    const parsed = parseFeed(feed);
    expect(parsed.calendar['X-WR-CALNAME']).toBe('SWX, obligations');
    expect(parsed.events).toHaveLength(1);
    expect(parsed.events[0]).toMatchObject({
      UID: 'loanDue-7-42@papers.swx',
      DTSTAMP: '20270312T080000Z',
      DTSTART: '20270408T000000Z',
      DTEND: '20270409T000000Z',
      SUMMARY: summary,
      DESCRIPTION: description,
      'SUMMARY;LANGUAGE': 'en',
    });
  });

  it('folds at 75 octets without cutting a character, in Arabic, Japanese and beyond the BMP', () => {
    const long = `${'استحقاق سداد القرض: قرض تجريبي، 1011.500000 USDT '.repeat(3)}ローン返済期日：テスト 🧾`;
    const feed = calendarFeed('التزامات SWX', 'ar', [event(long, long)], new Date('2027-03-12T08:00:00Z'));
    const physical = feed.split('\r\n');
    expect(physical.some((line) => line.startsWith(' '))).toBe(true);
    for (const line of physical) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      expect(line).not.toMatch(/[\uD800-\uDBFF]$|^ ?[\uDC00-\uDFFF]/);
    }
    expect(parseFeed(feed).events[0]?.SUMMARY).toBe(long);
  });

  it('leaves a line of 75 octets whole and folds the 76th', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
    // A three-octet character that would end at octet 76 moves to the next line whole.
    expect(foldLine(`${'x'.repeat(73)}ロ`)).toBe(`${'x'.repeat(73)}\r\n ロ`);
  });

  it('writes times in UTC, to the second', () => {
    expect(utcStamp(new Date('2027-03-31T23:59:59.999Z'))).toBe('20270331T235959Z');
  });
});

describe('the obligations, by book', () => {
  const maturity = (book: 'live' | 'demo'): Obligation => ({
    book,
    kind: 'earnMaturity',
    id: 9,
    product: 'Fixed 30',
    asset: 'USDT',
    amount: '1000.000000',
    at: '2027-04-04T10:00:00.000Z',
  });
  const DEMO_WORD: Record<(typeof LANGUAGES)[number], string> = {
    en: 'demo account',
    de: 'Demokonto',
    es: 'cuenta demo',
    fr: 'compte démo',
    it: 'conto demo',
    ar: 'حساب تجريبي',
    zh: '模拟账户',
    hk: '模擬賬戶',
    ja: 'デモ口座',
    ko: '모의 계좌',
  };

  it('labels the demo book’s obligations in every language and gives them UIDs of their own', () => {
    for (const language of LANGUAGES) {
      const [live, demo] = obligationEvents([maturity('live'), maturity('demo')], 42, language);
      expect(live?.uid).toBe('earnMaturity-9-42@papers.swx');
      expect(demo?.uid).toBe('earnMaturity-demo-9-42@papers.swx');
      expect(live?.summary, language).not.toContain(DEMO_WORD[language]);
      expect(demo?.summary, language).toContain(live?.summary);
      expect(demo?.summary, language).toContain(DEMO_WORD[language]);
      expect(demo?.description, language).toContain(live?.description);
      expect(demo?.description, language).toContain(DEMO_WORD[language]);
      expect(demo?.start).toEqual(live?.start);
    }
  });
});
