import { type MarkupFactory, renderMarkup } from '@swx/contract';
import { useQuery } from '@tanstack/react-query';
import { createElement, type ReactElement } from 'react';
import { fetchUpload } from '../api.ts';

/**
 * An image of a text, fetched with the staff token: a draft's image is served to staff only, so
 * an <img> pointing at the file route could not show it.
 */
function StaffImage({ src, alt }: { src: string; alt: string }) {
  const id = src.slice(src.lastIndexOf('/') + 1);
  const file = useQuery({
    queryKey: ['help', 'image', id],
    queryFn: () => fetchUpload(id),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return file.data ? <img src={file.data} alt={alt} /> : <span className="muted">{alt}</span>;
}

const h: MarkupFactory<ReactElement> = (tag, props, ...children) =>
  tag === 'img' && props
    ? createElement(StaffImage, { src: props.src ?? '', alt: props.alt ?? '' })
    : createElement(tag, props, ...children);

/**
 * A text as customers see it: the same tree of the contract's markup the customer app renders
 * (apps/web features/help/Markup.tsx), made into React elements, never parsed as HTML.
 */
export function Markup({ text }: { text: string }) {
  return createElement('div', { className: 'help-body' }, ...renderMarkup(text, h));
}
