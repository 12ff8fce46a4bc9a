import { type MarkupFactory, renderMarkup } from '@swx/contract';
import { createElement, type ReactElement } from 'react';

const h: MarkupFactory<ReactElement> = (tag, props, ...children) => createElement(tag, props, ...children);

/**
 * A text as customers see it: the same tree of the contract's markup the customer app renders
 * (apps/web features/help/Markup.tsx), made into React elements, never parsed as HTML.
 */
export function Markup({ text }: { text: string }) {
  return createElement('div', { className: 'help-body' }, ...renderMarkup(text, h));
}
