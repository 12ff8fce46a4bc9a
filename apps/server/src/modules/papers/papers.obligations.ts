import { type Book, interpolate, type Language } from '@swx/contract';
import type { CalendarEvent } from './papers.ics.ts';
import { TEXT } from './papers.texts.ts';

/**
 * The customer's obligations with a date, as the products state them: a loan's due day, an earn
 * investment's maturity, a trading plan's end, in the book they are in (loans and plans are live
 * only; earn is in both). The module wires the reader from the loans, earn and smart services.
 */
export type Obligation = { book: Book } & (
  | { kind: 'loanDue'; id: number; product: string; asset: string; amount: string; day: string }
  | {
      kind: 'earnMaturity' | 'planEnd';
      id: number;
      product: string;
      asset: string;
      amount: string;
      at: string;
    }
);

export type ObligationsReader = (userId: number) => Promise<Obligation[]>;

const HOUR_MS = 3_600_000;

/**
 * One calendar event per obligation; the UID names the obligation (and the book, for the demo
 * book's), so a calendar updates it in place. The demo book's are labelled so in their summary
 * and description.
 */
export function obligationEvents(
  obligations: readonly Obligation[],
  userId: number,
  language: Language,
): CalendarEvent[] {
  const t = TEXT[language];
  return obligations.map((o) => {
    const event = eventOf(o, language);
    const demo = o.book === 'demo';
    const label = (text: string) => (demo ? interpolate(t.demoBook, { text }, language) : text);
    return {
      ...event,
      uid: `${o.kind}-${demo ? 'demo-' : ''}${o.id}-${userId}@papers.swx`,
      summary: label(event.summary),
      description: label(event.description),
    };
  });
}

function eventOf(o: Obligation, language: Language): Omit<CalendarEvent, 'uid'> {
  const t = TEXT[language];
  const values = { product: o.product, amount: o.amount, asset: o.asset, id: o.id };
  if (o.kind === 'loanDue') {
    // The whole due day, UTC.
    const start = new Date(`${o.day}T00:00:00Z`);
    return {
      start,
      end: new Date(start.getTime() + 24 * HOUR_MS),
      summary: interpolate(t.loanDue, values, language),
      description: interpolate(t.loanDueText, { ...values, day: o.day }, language),
    };
  }
  const start = new Date(o.at);
  return {
    start,
    end: new Date(start.getTime() + HOUR_MS),
    summary: interpolate(t[o.kind], values, language),
    description: interpolate(
      o.kind === 'earnMaturity' ? t.earnMaturityText : t.planEndText,
      values,
      language,
    ),
  };
}
