/**
 * An iCalendar feed (RFC 5545) written by hand: CRLF line ends, content lines folded at 75 octets
 * (never inside a UTF-8 character, the continuation starting with one space), TEXT values escaped
 * (backslash, semicolon, comma, line break), every time in UTC (`…Z`), UIDs stable per obligation.
 */

export type CalendarEvent = {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description: string;
};

/** A TEXT value escaped (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll(';', '\\;')
    .replaceAll(',', '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A content line folded at 75 octets (§3.1): continuations start with a space, which counts. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

/** A UTC DATE-TIME (§3.3.5, form 2). */
export const utcStamp = (at: Date) => `${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

/** The whole feed: a VCALENDAR with one VEVENT per obligation, each stamped `stamp`. */
export function calendarFeed(
  name: string,
  language: string,
  events: readonly CalendarEvent[],
  stamp: Date,
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//SWX//Obligations//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
    ...events.flatMap((e) => [
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${utcStamp(stamp)}`,
      `DTSTART:${utcStamp(e.start)}`,
      `DTEND:${utcStamp(e.end)}`,
      `SUMMARY;LANGUAGE=${language}:${escapeText(e.summary)}`,
      `DESCRIPTION;LANGUAGE=${language}:${escapeText(e.description)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
