import { interpolate } from '@swx/contract';
import type { TextBlock } from '../../platform/pdf/writer.ts';
import { heldWords } from './papers.holdings.ts';
import { decimalOf, type Statement } from './papers.statement.ts';
import { pdfStyle, TEXT } from './papers.texts.ts';

/**
 * The statement as a PDF in the customer's language (platform/pdf: Noto faces embedded and
 * subsetted, text shaped, Arabic right to left): heading, holder, period, opening balance, every
 * event with its amount, fee and running balance, the totals, the closing balance and what was
 * held at the end by account, then each position and product open at the end. Dated when made.
 */
export async function statementPdf(
  s: Statement,
  holder: { name: string; id: number },
  madeAt: Date,
): Promise<Uint8Array> {
  const t = TEXT[s.language];
  const style = pdfStyle(s.language);
  // In right-to-left text a figure or a date is isolated left to right (U+2066…U+2069): after Arabic
  // letters the bidirectional algorithm would otherwise set 2027-03-01 as 01-03-2027, and a minus
  // sign after the digits.
  const ltr = (text: string) => (style.rtl ? `\u2066${text}\u2069` : text);
  const d = (minor: bigint) => ltr(decimalOf(s.asset, minor));
  const p = (text: string, size = 10, after = 4): TextBlock => ({
    kind: 'text',
    text,
    size,
    after,
    ...style,
  });
  const x = (template: string, values: Record<string, string | number>) =>
    interpolate(template, { asset: s.asset, ...values }, s.language);
  const blocks: TextBlock[] = [
    p(x(t.heading, { book: t.book[s.book] }), 16, 8),
    p(x(t.holder, { name: holder.name, id: holder.id })),
    p(x(t.period, { from: ltr(s.from), to: ltr(s.to) }), 10, 10),
    p(x(t.opening, { from: ltr(s.from), amount: d(s.opening) }), 11, 8),
    p(t.events, 12, 6),
    ...(s.lines.length === 0 ? [p(t.noEvents)] : []),
    ...s.lines.map((l) => {
      const line = x(t.line, {
        date: ltr(l.at.slice(0, 16).replace('T', ' ')),
        text: l.text,
        amount: d(l.amount),
        balance: d(l.balance),
      });
      return p(l.fee === 0n ? line : `${line} · ${x(t.fee, { fee: d(l.fee) })}`, 9, 3);
    }),
    p(x(t.totals, { credits: d(s.credits), debits: d(s.debits), fees: d(s.fees) }), 10, 6),
    p(x(t.closing, { to: ltr(s.to), amount: d(s.closing) }), 11, 10),
    p(t.holdings, 12, 6),
    ...s.holdings.map((h) => {
      const accounts = t.account as Record<string, string>;
      return p(x(t.holding, { account: accounts[h.kind] ?? t.account.other, amount: d(h.amount) }));
    }),
    p(t.products, 12, 6),
    ...(s.products.length === 0 ? [p(t.noProducts)] : []),
    ...s.products.map((h) => p(heldWords(h, t, s.language, ltr), 9, 3)),
    p(x(t.generated, { time: ltr(madeAt.toISOString().slice(0, 19).replace('T', ' ')) }), 8, 0),
  ];
  // The writer (pdf-lib, HarfBuzz, the fonts) is loaded when a document is first made, not at start.
  const { writePdf } = await import('../../platform/pdf/writer.ts');
  return writePdf(blocks, {
    title: `${t.title} ${s.asset} ${s.from} – ${s.to}`,
    author: 'SWX',
    language: style.language,
    date: madeAt,
  });
}
