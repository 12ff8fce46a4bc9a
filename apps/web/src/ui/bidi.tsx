import { Fragment, type ReactNode } from 'react';

/**
 * Texts composed with Unicode bidi isolates (app/figures.ts puts each amount in LRI … PDI, so number
 * and asset keep their order inside Arabic). The controls lay the text out right, but they are
 * characters: in an accessible name (a button's or a label's text, an `aria-label`) a screen reader
 * gets "Swap ⁦100.00 USDT⁩ for …". Where a text names a control, the same isolation is drawn with
 * elements instead (`Isolated`: `<span dir>`, `<bdi>`), or, in an attribute, which is only spoken,
 * the controls are dropped (`withoutIsolates`).
 */
const ISOLATES = /[\u2066-\u2069]/g;
const HAS_ISOLATE = /[\u2066-\u2069]/;

/** The text without its isolate controls (LRI, RLI, FSI, PDI). */
export function withoutIsolates(text: string): string {
  return text.replace(ISOLATES, '');
}

type Isolate = { dir: 'ltr' | 'rtl' | 'auto'; parts: Part[] };
type Part = string | Isolate;

const OPENERS: Record<string, Isolate['dir']> = { '\u2066': 'ltr', '\u2067': 'rtl', '\u2068': 'auto' };

/** The text as nested runs: plain text, and each isolate with what it holds (an unclosed one ends with the text). */
function parse(text: string): Part[] {
  const top: Part[] = [];
  const open: Part[][] = [top];
  for (const piece of text.split(/([\u2066-\u2069])/)) {
    if (!piece) continue;
    const dir = OPENERS[piece];
    const here = open[open.length - 1] ?? top;
    if (dir) {
      const isolate: Isolate = { dir, parts: [] };
      here.push(isolate);
      open.push(isolate.parts);
    } else if (piece === '\u2069') {
      if (open.length > 1) open.pop();
    } else here.push(piece);
  }
  return top;
}

function draw(parts: Part[]): ReactNode {
  return parts.map((part, i) =>
    typeof part === 'string' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, in their order
      <Fragment key={i}>{part}</Fragment>
    ) : part.dir === 'auto' ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, in their order
      <bdi key={i}>{draw(part.parts)}</bdi>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one text, in their order
      <span key={i} dir={part.dir}>
        {draw(part.parts)}
      </span>
    ),
  );
}

/** `text` laid out as its isolates say, by elements (which an accessible name does not carry). */
export function Isolated({ text }: { text: string }): ReactNode {
  return HAS_ISOLATE.test(text) ? draw(parse(text)) : text;
}
