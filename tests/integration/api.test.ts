import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerApi } from '../support/api.ts';
import { api, type RunningServer, startServer } from '../support/server.ts';

const C = '/swx/customer';

describe('the API of a real server process', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers health and readiness', async () => {
    expect(await (await fetch(`${server.baseUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
      status: string;
      database: string;
    };
    expect(ready).toMatchObject({ status: 'ready', database: 'pglite' });
  });

  it('wraps answers in the {code, msg, data} envelope, localized by the request language', async () => {
    const de = await customerApi(server).call('getParamByKey', { key: 'nope' }, { language: 'de-DE' });
    expect(de.status).toBe(200);
    expect({ code: de.code, msg: de.msg, data: de.data }).toEqual({
      code: 10018,
      msg: 'Der Systemparameter wurde nicht gefunden.',
      data: null,
    });
    const zh = await customerApi(server).call('listContents', { type: 1 }, { language: 'zh-CN' });
    expect(zh.code).toBe(200);
    expect(zh.data.find((i) => i.slug === 'about')?.title).toBe('关于我们');
  });

  it('serves the footer list, a content page and the listContents variants', async () => {
    const arabic = customerApi(server, null, { language: 'ar' });
    const footer = await arabic.call('listContentsByList', { type: 4, x: 2 });
    const items = footer.data;
    expect(items).toHaveLength(9);
    const page = await arabic.call('getContentsById', { id: items[0]?.id ?? 0 });
    expect(page.data).toMatchObject({ id: items[0]?.id, title: items[0]?.title, language: 'ar' });
    // The help centre's seeded articles: FAQ (5) and notices (6) of a category, in English here.
    const faq = await customerApi(server).call('listContentsByList', { type: 5, x: 0 });
    expect(faq.data.length).toBeGreaterThan(0);
    expect(faq.data.every((item) => item.type === 5 && item.language === 'en')).toBe(true);
    const notices = await customerApi(server).call('listContentsByList', { type: 6, x: 1 });
    expect(notices.data.every((item) => item.type === 6 && item.category === 1)).toBe(true);
  });

  it('refuses bad input with a catalogue code and a localized message, never a 500', async () => {
    for (const path of [
      `${C}/index/getContentsById/abc`,
      `${C}/index/getContentsById/-1`,
      `${C}/index/getContentsById/99999999999`,
      `${C}/index/listContents/9`,
      `${C}/index/listContents/4/x`,
      `${C}/index/getParamByKey/${encodeURIComponent('../../etc')}`,
    ]) {
      const r = await api(server.baseUrl, path, { headers: { 'accept-language': 'fr' } });
      expect(r.status, path).toBe(400);
      expect(r.body.code, path).toBe(10026);
      expect(r.body.msg, path).toBe('Certaines des informations saisies ne sont pas valides.');
    }
    const broken = await api(server.baseUrl, `${C}/user/getUserInfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"not json',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.code).toBe(10026);
  });

  it('answers 10028 with HTTP 404 for an unknown call and a missing item', async () => {
    const unknown = await api(server.baseUrl, `${C}/index/noSuchCall`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(10028);
    expect((await customerApi(server).call('getContentsById', { id: 123456 })).code).toBe(10028);
    // A customer call without a session (the NFT market's commit) is refused before anything is read.
    expect((await api(server.baseUrl, `${C}/user/buyNft`, { method: 'POST' })).body.code).toBe(401);
  });

  it('answers body code 401 and HTTP 401 to a call that needs a session, with or without a token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'A'.repeat(43) },
      { authorization: 'not a token' },
    ];
    for (const headers of attempts) {
      const r = await api(server.baseUrl, `${C}/user/getUserInfo`, { method: 'POST', headers });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(401);
    }
  });

  it('sets strict security headers on pages and API answers', async () => {
    for (const path of ['/', `${C}/index/listContents/1`, '/admin/']) {
      const response = await fetch(server.baseUrl + path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).not.toContain('unsafe-inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    }
    expect((await fetch(`${server.baseUrl}${C}/index/listContents/1`)).headers.get('cache-control')).toBe(
      'no-store',
    );
  });

  it('sends text compressed by the Accept-Encoding asked for, hashed assets cached as immutable', async () => {
    const get = (path: string, encoding: string) =>
      fetch(server.baseUrl + path, { headers: { 'accept-encoding': encoding } });
    const page = await get('/market', 'br, gzip');
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1] ?? '';
    expect(script).not.toBe('');
    const plain = await get(script, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const source = await plain.text();
    for (const encoding of ['br', 'gzip']) {
      const packed = await get(script, encoding);
      expect(packed.headers.get('content-encoding'), encoding).toBe(encoding);
      expect(packed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await packed.text()).toBe(source);
    }
    // API JSON: compressed above 1 KB, a short answer sent as it is.
    const list = await get(`${C}/index/listMarketByType?type=2`, 'gzip');
    expect(list.headers.get('content-encoding')).toBe('gzip');
    expect(((await list.json()) as { code: number }).code).toBe(200);
    const short = await get(`${C}/index/listContents/1`, 'br, gzip');
    expect(short.headers.get('content-encoding')).toBeNull();
  });

  it("paints a first screen before the app's script, in the language the app keeps in its cookie", async () => {
    // A path the build drew no screen for (a parameter's page): the plain first paint.
    const page = async (cookie?: string) =>
      (await fetch(`${server.baseUrl}/trading/7`, { headers: cookie ? { cookie } : {} })).text();
    const english = await page();
    expect(english).toContain('<html lang="en" dir="ltr">');
    expect(english).toMatch(/<div id="boot" class="boot">.*Loading…/);
    expect(english).toContain('<div id="root"></div>');
    const arabic = await page('theme=x; swx_lang=ar');
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('جارٍ التحميل…');
    expect(await page('swx_lang=../x')).toContain('<html lang="en" dir="ltr">');
  });

  it("sends a route's first screen drawn at build time, in the reader's language and layout, and the plain paint where the build drew none", async () => {
    const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36';
    const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36';
    const page = async (path: string, userAgent: string, cookie?: string) => {
      const response = await fetch(server.baseUrl + path, {
        headers: { 'user-agent': userAgent, ...(cookie ? { cookie } : {}) },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toMatch(/user-agent/i);
      return response.text();
    };
    const phone = await page('/market', PHONE, 'swx_lang=ar');
    expect(phone).toContain('<html lang="ar" dir="rtl" data-first-screen="ar mobile">');
    // The app's own markup of the screen, inert until the app replaces it.
    expect(phone).toMatch(
      /<div id="root" inert>.*<div class="shell mobile">.*<h1 class="page-title">الأسواق<\/h1>/s,
    );
    // No inline script: the security policy allows none.
    expect(phone.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).toEqual([]);
    const desktop = await page('/market/', DESKTOP);
    expect(desktop).toContain('<html lang="en" dir="ltr" data-first-screen="en desktop">');
    expect(desktop).toMatch(/<div class="shell desktop">.*<h1 class="page-title">Markets<\/h1>/s);
    // With the stylesheets of the screen's own chunk.
    const login = await page('/pass/login', PHONE, 'swx_lang=fr');
    expect(login).toContain('data-first-screen="fr mobile"');
    expect(login).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/identity-[^"]+\.css"><\/head>/);
    // A query names the screen's data: the plain paint, as for a parameter's page, unless the
    // server draws that screen with its data (next test); not for an instrument that is none.
    for (const path of [
      '/cruuency?code=BTCUSDT&type=2&id=999999',
      '/cruuency?code=BTCUSDT&type=2&id=abc',
      '/cruuency?code=BTCUSDT&type=2',
      '/market?type=1',
      '/trading/7',
      '/no/such/page',
    ]) {
      const plain = await page(path, PHONE, 'swx_lang=ar');
      expect(plain, path).toContain('<html lang="ar" dir="rtl">');
      expect(plain, path).toContain('<div id="root"></div>');
    }
  });

  it("sends the instrument page drawn with its data, and the call it was drawn with for the app, in the reader's language and layout", async () => {
    const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36';
    const instruments = await customerApi(server).ok('listMarketByType', { type: 2 });
    const btc = instruments.find((item) => item.code === 'BTCUSDT');
    if (!btc) throw new Error('BTCUSDT is not listed');
    for (const [userAgent, layout, language, tag, dir] of [
      [PHONE, 'mobile', 'ar', 'ar', 'rtl'],
      [DESKTOP, 'desktop', 'en', 'en', 'ltr'],
    ] as const) {
      const response = await fetch(`${server.baseUrl}/cruuency?code=BTCUSDT&type=2&id=${btc.id}`, {
        headers: { 'user-agent': userAgent, cookie: `swx_lang=${language}`, 'accept-encoding': 'br' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-encoding')).toBe('br');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const page = await response.text();
      expect(page).toContain(`<html lang="${tag}" dir="${dir}" data-first-screen="${language} ${layout}">`);
      // The call, as data the app reads (never run): the same answer the reader would get.
      const carried = /<script type="application\/json" id="first-call">([^<]*)<\/script>/.exec(page)?.[1];
      const call = JSON.parse(carried ?? 'null') as {
        url: string;
        headers: Record<string, string>;
        status: number;
        body: string;
      };
      expect(call.url).toBe(`/swx/customer/index/getMarketInfo/${btc.id}`);
      expect(call.headers).toEqual({ accept: 'application/json', 'accept-language': tag, virtually: 'NO' });
      expect(call.status).toBe(200);
      const drawn = (JSON.parse(call.body) as { data: { appName: string; code: string } }).data;
      const own = (await (await fetch(server.baseUrl + call.url, { headers: call.headers })).json()) as {
        data: { appName: string; code: string };
      };
      expect(drawn).toMatchObject({ code: 'BTCUSDT', appName: own.data.appName });
      // The screen with the instrument's own figures, inert until the app takes it over.
      expect(page).toMatch(
        new RegExp(
          `<div id="root" inert>.*<div class="shell ${layout}">.*<h1 class="page-title">${own.data.appName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`,
          's',
        ),
      );
      expect(page).toMatch(/<strong data-testid="live-price" data-price="[\d.]+">/);
      // No inline script beside that data: the security policy allows none.
      expect(page.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).toEqual([
        '<script type="application/json" id="first-call">',
      ]);
    }
    // Many at once: each is sent, drawn or (past the few a server draws at a time) plain.
    const pages = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const response = await fetch(`${server.baseUrl}/cruuency?id=${btc.id}`);
        return { status: response.status, page: await response.text() };
      }),
    );
    for (const { status, page } of pages) {
      expect(status).toBe(200);
      expect(page).toMatch(/<div id="root"( inert>.*<h1 class="page-title">|><\/div>)/s);
    }
    expect(pages.some(({ page }) => page.includes('id="first-call"'))).toBe(true);
  });

  it('serves the customer app for client routes and the back office under /admin', async () => {
    for (const path of ['/', '/market', '/financial/vipInvestDetail/3', '/no/such/page']) {
      const response = await fetch(server.baseUrl + path);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<div id="root"');
    }
    const admin = await fetch(`${server.baseUrl}/admin/customers`);
    expect(await admin.text()).toContain('SWX back office');
    expect((await fetch(`${server.baseUrl}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/service.html`)).status).toBe(200);
  });

  it('names an icon the server has in every back-office page, so no page asks for a missing /favicon.ico', async () => {
    for (const path of ['/admin/', '/admin/customers', '/admin/review/kyc']) {
      const page = await (await fetch(server.baseUrl + path)).text();
      const href = /<link rel="icon" href="([^"]+)"/.exec(page)?.[1];
      expect(href, path).toMatch(/^\/admin\//);
      const icon = await fetch(new URL(href ?? '', server.baseUrl + path));
      expect(icon.status, href).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
  });

  it('publishes the OpenAPI document generated from the contract', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/swx/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/swx/customer/index/getContentsById/{id}');
    expect(Object.keys(doc.paths)).toContain('/swx/customer/user/listWithdrwal');
  });
});

describe('rate limit', () => {
  it('refuses an address past its per-minute allowance with 10027 and Retry-After', async () => {
    const server = await startServer({ API_RATE_LIMIT: '5' });
    try {
      // A page the server draws with its data asks for that data as the reader's own request:
      // it counts against the reader's address, as the browser's request would.
      const instrumentPage = async () => (await fetch(`${server.baseUrl}/cruuency?code=EURUSD&id=1`)).text();
      expect(await instrumentPage()).toContain('id="first-call"');
      const codes: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 6; i++) {
        const r = await api(server.baseUrl, `${C}/index/listContents/1`, {
          headers: { 'accept-language': 'es' },
        });
        codes.push(r.body.code);
        if (r.status === 429) {
          retryAfter = r.headers.get('retry-after');
          expect(r.body.msg).toBe('Demasiados intentos. Espere un momento y vuelva a intentarlo.');
        }
      }
      expect(codes).toEqual([200, 200, 200, 200, 10027, 10027]);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      // Past the allowance, the page is still sent: plain, the app then asks (and is told to wait).
      const plain = await instrumentPage();
      expect(plain).not.toContain('id="first-call"');
      expect(plain).toContain('<div id="root"></div>');
    } finally {
      await server.stop();
    }
  });
});

describe('lifecycle', () => {
  it('migrates at start, keeps data across a restart and stops gracefully on SIGTERM', async () => {
    const first = await startServer({}, { keepData: true });
    const dataDir = first.dataDir;
    const before = await customerApi(first).call('listContentsByList', { type: 4, x: 2 });
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await startServer({}, { dataDir });
    const after = await customerApi(second).call('listContentsByList', { type: 4, x: 2 });
    expect(after.data).toEqual(before.data);
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('refuses to start on an invalid environment and says why', async () => {
    await expect(startServer({ PORT: 'eighty' })).rejects.toThrow(/PORT/);
  });
});
