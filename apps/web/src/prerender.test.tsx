import { describe, expect, it } from 'vitest';
import { firstScreenPage } from './prerender.tsx';

const page = `<!doctype html><html lang="en" dir="ltr"><head><template id="app" data-routes='[["Currency-1.css","Currency-1.js"],[["^/cruuency/?$",[0,1],{}]]]'></template><script src="/boot.js"></script></head><body><div id="root"></div></body></html>`;

describe('a page with a screen drawn in it (prerender.tsx firstScreenPage)', () => {
  it('carries the screen, its stylesheets and the call it was drawn with as data nothing in an answer can close', () => {
    const body = JSON.stringify({
      code: 200,
      data: { appName: '</script><script>alert(1)</script> <!-- $& $`' },
    });
    const call = {
      url: '/swx/customer/index/getMarketInfo/1',
      headers: { accept: 'application/json' },
      status: 200,
      body,
    };
    const drawn = firstScreenPage(page, {
      path: '/cruuency',
      language: 'en',
      layout: 'mobile',
      html: '<main>$& $1 figures</main>',
      call,
    });
    expect(drawn).toContain('<html lang="en" dir="ltr" data-first-screen="en mobile">');
    // Before boot.js, which reads it; one element, whatever the answer holds.
    const data = /<script type="application\/json" id="first-call">(.*?)<\/script><template id="app"/.exec(
      drawn,
    )?.[1];
    expect(data).toBeDefined();
    expect(data).not.toContain('<');
    expect(JSON.parse(data ?? '')).toEqual(call);
    expect(drawn.match(/<script/g)).toHaveLength(2);
    // The screen as drawn (no replacement pattern read into it), inert until the app takes it over.
    expect(drawn).toContain('<div id="root" inert><main>$& $1 figures</main></div>');
    expect(drawn).toContain('<link rel="stylesheet" crossorigin href="/assets/Currency-1.css"></head>');
  });

  it('refuses a page it cannot draw in, rather than send one without the screen', () => {
    expect(() =>
      firstScreenPage(page.replace('<div id="root"></div>', ''), {
        path: '/cruuency',
        language: 'en',
        layout: 'desktop',
        html: '<main></main>',
      }),
    ).toThrow(/no <html lang dir> or empty #root/);
  });
});
