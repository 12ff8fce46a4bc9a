import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Isolated, withoutIsolates } from './bidi.tsx';

describe('bidi isolates in names (ui/bidi.tsx)', () => {
  it('draws each isolate as an element, so the text carries no control characters', () => {
    const html = renderToStaticMarkup(
      <Isolated text={'Swap \u2066100.00 USDT\u2069 for \u20660.001 BTC\u2069'} />,
    );
    expect(html).toBe('Swap <span dir="ltr">100.00 USDT</span> for <span dir="ltr">0.001 BTC</span>');
    expect(html).not.toMatch(/[\u2066-\u2069]/);
  });

  it('draws right-to-left and first-strong isolates, nested ones and an unclosed one', () => {
    expect(renderToStaticMarkup(<Isolated text={'a \u2067\u0628 \u2068x\u2069\u2069 b'} />)).toBe(
      'a <span dir="rtl">ب <bdi>x</bdi></span> b',
    );
    expect(renderToStaticMarkup(<Isolated text={'a \u2066b'} />)).toBe('a <span dir="ltr">b</span>');
    expect(renderToStaticMarkup(<Isolated text="plain words" />)).toBe('plain words');
  });

  it('drops the controls from a text that is only spoken (an attribute)', () => {
    expect(withoutIsolates('Copy \u2066ab 12\u2069')).toBe('Copy ab 12');
  });
});
