/**
 * An iCalendar reader for tests, written from RFC 5545 and nothing of papers.ics.ts: it refuses a
 * feed whose lines do not end in CRLF or run past 75 octets, unfolds (CRLF then one space or
 * tab), splits each content line into name, parameters and value, and unescapes TEXT values.
 */
export type ParsedFeed = { calendar: Record<string, string>; events: Record<string, string>[] };

const unescapeText = (value: string) =>
  value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

export function parseFeed(feed: string): ParsedFeed {
  if (!feed.endsWith('\r\n')) throw new Error('the feed does not end with CRLF');
  const physical = feed.slice(0, -2).split('\r\n');
  for (const line of physical) {
    if (line.includes('\n') || line.includes('\r')) throw new Error('a bare line break');
    if (Buffer.byteLength(line, 'utf8') > 75) throw new Error(`a line of more than 75 octets: ${line}`);
  }
  const lines = feed
    .slice(0, -2)
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n');
  const calendar: Record<string, string> = {};
  const events: Record<string, string>[] = [];
  let event: Record<string, string> | null = null;
  const stack: string[] = [];
  for (const line of lines) {
    const colon = line.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
    if (colon < 0) throw new Error(`not a content line: ${line}`);
    const [name = '', ...params] = line.slice(0, colon).split(';');
    const value = line.slice(colon + 1);
    if (name === 'BEGIN') {
      stack.push(value);
      if (value === 'VEVENT') event = {};
      continue;
    }
    if (name === 'END') {
      if (stack.pop() !== value) throw new Error(`END:${value} closes nothing`);
      if (value === 'VEVENT' && event) events.push(event);
      event = null;
      continue;
    }
    const target = event ?? calendar;
    target[name] = unescapeText(value);
    for (const param of params) target[`${name};${param.split('=')[0]}`] = param.split('=')[1] ?? '';
  }
  if (stack.length > 0) throw new Error('unclosed component');
  return { calendar, events };
}
