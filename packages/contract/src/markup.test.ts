import { describe, expect, it } from 'vitest';
import { markupIssues, markupPlainText, parseMarkup, renderMarkup } from './markup.ts';

/** A tiny element factory: the rendered tree as HTML text, every text child escaped. */
type Node = { html: string };
const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const html = (tag: string, props: Record<string, string> | null, ...children: (Node | string)[]): Node => {
  const attrs = Object.entries(props ?? {})
    .map(([name, value]) => ` ${name}="${escapeText(value)}"`)
    .join('');
  const inner = children.map((c) => (typeof c === 'string' ? escapeText(c) : c.html)).join('');
  return { html: `<${tag}${attrs}>${inner}</${tag}>` };
};
const render = (text: string) =>
  renderMarkup(text, html)
    .map((node) => node.html)
    .join('');

describe('help markup', () => {
  it('takes headings, paragraphs, lists, emphasis, code, links and uploaded images', () => {
    const text = [
      '## How a quote works',
      'A quote is **signed** and *valid* for `30` seconds. See [the terms](/detail?id=3).',
      '- one\n- two',
      '1. first\n2. second',
      '![A chart](/swx/files/0123456789abcdef01234567)',
      '### More',
      'Read [the spec](https://example.org/spec).',
    ].join('\n\n');
    expect(markupIssues(text)).toEqual([]);
    expect(render(text)).toBe(
      '<h2>How a quote works</h2>' +
        '<p>A quote is <strong>signed</strong> and <em>valid</em> for <code>30</code> seconds. See <a href="/detail?id=3">the terms</a>.</p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>' +
        '<img src="/swx/files/0123456789abcdef01234567" alt="A chart" loading="lazy"></img>' +
        '<h3>More</h3>' +
        '<p>Read <a href="https://example.org/spec" rel="noopener noreferrer nofollow">the spec</a>.</p>',
    );
    expect(markupPlainText(text)).toContain('A quote is signed and valid for 30 seconds.');
  });

  it.each([
    ['a script tag', '<script>alert(1)</script>', 'html'],
    ['a script tag in capitals and spaces', 'Hello < SCRIPT src=//evil.example/x.js>', 'html'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', 'html'],
    ['an event handler on an image', '<img src=x onerror="alert(1)">', 'html'],
    ['an event handler on a link', '<a href="/" onclick="alert(1)">x</a>', 'html'],
    ['an svg with onload', '<svg onload=alert(1)>', 'html'],
    ['an HTML comment', 'text <!-- hidden -->', 'html'],
    ['a closing tag', 'text </p>', 'html'],
    ['a javascript: link', '[click](javascript:alert(1))', 'link'],
    ['a javascript: link in mixed case', '[click](JaVaScRiPt:alert(1))', 'link'],
    ['an entity-encoded javascript: link', '[click](&#106;avascript:alert(1))', 'link'],
    ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD4=)', 'link'],
    ['a vbscript: link', '[click](vbscript:msgbox(1))', 'link'],
    ['a protocol-relative link', '[click](//evil.example/)', 'link'],
    ['an image from elsewhere', '![x](https://evil.example/x.png)', 'image'],
    ['a javascript: image', '![x](javascript:void)', 'image'],
  ])('refuses %s', (_name, text, issue) => {
    expect(markupIssues(text)).toContain(issue);
    // Text is escaped, so every < left opens an element the renderer made: only allowed ones.
    for (const [, tag, attrs] of render(text).matchAll(/<(\w+)([^>]*)>/g)) {
      expect(['p', 'h2', 'h3', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'code', 'img']).toContain(tag);
      expect(attrs).not.toMatch(/\son\w*=|href="(?!\/[^/]|https?:)|src="(?!\/swx\/files\/)/i);
    }
  });

  it('shows a refused link as its words, never as a link', () => {
    expect(parseMarkup('[click](javascript:void)')).toEqual([{ t: 'p', c: [{ t: 'text', v: 'click' }] }]);
  });

  it('allows a lone less-than sign in words', () => {
    expect(markupIssues('A margin level < 100 % closes positions.')).toEqual([]);
  });
});
