import { type MarkupFactory, renderMarkup } from '@swx/contract';
import { createElement, type ReactElement } from 'react';

/** React's own element factory: the tree of the markup becomes elements, never parsed HTML. */
const h: MarkupFactory<ReactElement> = (tag, props, ...children) => createElement(tag, props, ...children);

/**
 * A help article's text as staff wrote it (the contract's markup): only headings, paragraphs,
 * lists, emphasis, code, links (http(s) or this site) and uploaded images can come out of it.
 * The elements are passed as arguments, not as a list, so they need no keys.
 */
export function Markup({ text }: { text: string }) {
  return createElement('div', { className: 'prose help-body' }, ...renderMarkup(text, h));
}
