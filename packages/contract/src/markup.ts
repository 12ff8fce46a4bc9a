/**
 * The help centre's markup: a small Markdown subset that staff write and customers read. It is
 * never HTML: a parser turns it into a tree of a few element kinds, the server refuses on save any
 * text whose tree lost something (an HTML tag, a link or image it does not allow), and both front
 * ends build their elements from the same tree (`renderMarkup`), so no stored text is ever parsed
 * by a browser as HTML.
 *
 * Blocks, split by blank lines: `## heading`, `### subheading`, lines of `- item` (a list), lines
 * of `1. item` (a numbered list), `![alt](/swx/files/<id>)` alone (an image from the upload
 * service), anything else a paragraph. Inline: `**strong**`, `*emphasis*`, `` `code` `` and
 * `[text](href)` with an http(s) address or a path of this site.
 */

export type MarkupInline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong' | 'em'; c: MarkupInline[] }
  | { t: 'a'; href: string; c: MarkupInline[] };

export type MarkupBlock =
  | { t: 'p' | 'h2' | 'h3'; c: MarkupInline[] }
  | { t: 'ul' | 'ol'; items: MarkupInline[][] }
  | { t: 'img'; src: string; alt: string };

/** Why a text was refused: an HTML tag, a link to what is not http(s) or this site, an image not uploaded here. */
export type MarkupIssue = 'html' | 'link' | 'image' | 'length';

export const MARKUP_MAX_LENGTH = 20_000;

/** A link: http(s) with a host, or a path of this site (one slash, not two). Nothing else (javascript:, data:, …). */
export const SAFE_HREF = /^(?:https?:\/\/[a-z0-9.-]+(?::\d{1,5})?(?:[/?#][^\s<>"']*)?|\/(?!\/)[^\s<>"']*)$/i;
/** An image: a file of the upload service, by its public id. */
export const SAFE_IMAGE_SRC = /^\/swx\/files\/[a-f0-9]{24}$/;
/** The start of an HTML tag, comment or declaration. */
const HTML_TAG = /<\s*[a-z!?/]/i;

type Parsed = { blocks: MarkupBlock[]; issues: Set<MarkupIssue> };

function parseInline(text: string, issues: Set<MarkupIssue>): MarkupInline[] {
  const out: MarkupInline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({ t: 'text', v: plain });
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const code = /^`([^`]+)`/.exec(rest);
    const strong = /^\*\*(.+?)\*\*/.exec(rest);
    const em = /^\*([^*\s][^*]*?)\*/.exec(rest);
    const link = /^\[([^\]]+)\]\(([^)\s]*)\)/.exec(rest);
    const match = code ?? strong ?? em ?? link;
    if (!match) {
      plain += text[i];
      i += 1;
      continue;
    }
    flush();
    const inner = match[1] ?? '';
    if (match === code) out.push({ t: 'code', v: inner });
    else if (match === strong) out.push({ t: 'strong', c: parseInline(inner, issues) });
    else if (match === em) out.push({ t: 'em', c: parseInline(inner, issues) });
    else {
      const href = match[2] ?? '';
      if (SAFE_HREF.test(href)) out.push({ t: 'a', href, c: parseInline(inner, issues) });
      else {
        issues.add('link');
        out.push({ t: 'text', v: inner });
      }
    }
    i += match[0].length;
  }
  flush();
  return out;
}

function parseBlock(block: string, issues: Set<MarkupIssue>): MarkupBlock {
  const lines = block.split('\n').map((line) => line.trim());
  const heading = /^(#{2,3})\s+(.+)$/.exec(block);
  if (heading && lines.length === 1)
    return { t: heading[1] === '##' ? 'h2' : 'h3', c: parseInline(heading[2] ?? '', issues) };
  const image = /^!\[([^\]]*)\]\(([^)\s]*)\)$/.exec(block);
  if (image) {
    const src = image[2] ?? '';
    if (SAFE_IMAGE_SRC.test(src)) return { t: 'img', src, alt: image[1] ?? '' };
    issues.add('image');
    return { t: 'p', c: [{ t: 'text', v: image[1] ?? '' }] };
  }
  if (lines.every((line) => /^[-*]\s+/.test(line)))
    return { t: 'ul', items: lines.map((line) => parseInline(line.replace(/^[-*]\s+/, ''), issues)) };
  if (lines.every((line) => /^\d{1,3}\.\s+/.test(line)))
    return { t: 'ol', items: lines.map((line) => parseInline(line.replace(/^\d{1,3}\.\s+/, ''), issues)) };
  return { t: 'p', c: parseInline(lines.join(' '), issues) };
}

function parse(text: string): Parsed {
  const issues = new Set<MarkupIssue>();
  if (HTML_TAG.test(text)) issues.add('html');
  if (text.length > MARKUP_MAX_LENGTH) issues.add('length');
  const blocks = normalizeMarkup(text)
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== '')
    .map((block) => parseBlock(block.trim(), issues));
  return { blocks, issues };
}

/** Line ends as \n, no trailing space on a line, no blank lines at either end. */
export function normalizeMarkup(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

/** The tree of a stored text (what cannot be shown safely is shown as its words, or not at all). */
export function parseMarkup(text: string): MarkupBlock[] {
  return parse(text).blocks;
}

/** What makes a text unfit to be saved; empty when it is fine. */
export function markupIssues(text: string): MarkupIssue[] {
  return [...parse(text).issues].sort();
}

/** The words of a text, without its markup: for search excerpts and summaries. */
export function markupPlainText(text: string): string {
  const words = (nodes: MarkupInline[]): string =>
    nodes.map((node) => ('v' in node ? node.v : words(node.c))).join('');
  return parseMarkup(text)
    .map((block) =>
      block.t === 'img' ? block.alt : 'items' in block ? block.items.map(words).join(' ') : words(block.c),
    )
    .filter(Boolean)
    .join(' ');
}

/** How an element is made: React's createElement fits (`renderMarkup(blocks, createElement)`). */
export type MarkupFactory<N> = (
  tag: string,
  props: Record<string, string> | null,
  ...children: (N | string)[]
) => N;

function inlineNodes<N>(nodes: MarkupInline[], h: MarkupFactory<N>): (N | string)[] {
  return nodes.map((node) => {
    switch (node.t) {
      case 'text':
        return node.v;
      case 'code':
        return h('code', null, node.v);
      case 'a':
        return /^https?:/i.test(node.href)
          ? h('a', { href: node.href, rel: 'noopener noreferrer nofollow' }, ...inlineNodes(node.c, h))
          : h('a', { href: node.href }, ...inlineNodes(node.c, h));
      default:
        return h(node.t, null, ...inlineNodes(node.c, h));
    }
  });
}

/** The elements of a stored text, made by `h`: only p, h2, h3, ul, ol, li, a, strong, em, code, img. */
export function renderMarkup<N>(text: string, h: MarkupFactory<N>): N[] {
  return parseMarkup(text).map((block) => {
    if (block.t === 'img') return h('img', { src: block.src, alt: block.alt, loading: 'lazy' });
    if ('items' in block)
      return h(block.t, null, ...block.items.map((item) => h('li', null, ...inlineNodes(item, h))));
    return h(block.t, null, ...inlineNodes(block.c, h));
  });
}
