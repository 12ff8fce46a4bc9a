import { CUSTOMER_API_BASE, callRoutes } from '@swx/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { requestHeaders } from './api.ts';
import { answerCallsWith } from './firstCall.ts';
import { firstQuery } from './firstQuery.ts';
import { ROUTES } from './routes.ts';
import { getState } from './state.ts';

/** getMarketInfo's answer, in the wire's names. */
const instrument = {
  id: 7,
  code: 'EURUSD',
  type: 1,
  appName: 'Euro / US Dollar',
  logo: '/logos/EURUSD.svg',
  price: '1.14719',
  bid: '1.14715',
  ask: '1.14724',
  zdf: '0.000868',
  hundred: ['1.14598'],
  open: false,
};

afterEach(() => answerCallsWith(undefined));

describe('the screens the server draws with their data (firstQuery.ts)', () => {
  it("ask for their data with the route's first call, the request boot.js sends for the same page", async () => {
    const drawn = ROUTES.filter((route) => route.firstCall).flatMap((route) => {
      const { name, params } = route.firstCall as NonNullable<typeof route.firstCall>;
      // The page with 7 for every value its first call takes.
      const pathname = route.path.replace(/:(\w+)/g, '7');
      const search = `?${Object.values(params)
        .filter((source) => source.startsWith('?'))
        .map((source) => `${source.slice(1)}=7`)
        .join('&')}`;
      const query = firstQuery({ pathname, search }, 'en');
      return query ? [{ name, params, query }] : [];
    });
    // The instrument page, at /instrument and at spec §2's /cruuency.
    expect(drawn.map(({ name }) => name)).toEqual(['getMarketInfo', 'getMarketInfo']);
    for (const { name, params, query } of drawn) {
      const asked: { url: string; headers: Record<string, string> }[] = [];
      answerCallsWith(async (url, headers) => {
        asked.push({ url, headers });
        return new Response(JSON.stringify({ code: 200, msg: 'Success', data: instrument }));
      });
      const data = await new QueryClient().fetchQuery(query);
      // The app's names inside: the 24 h change is `change`.
      const { zdf, ...rest } = instrument;
      expect(data).toEqual({ ...rest, change: zdf });
      const path = Object.keys(params).reduce(
        (url, param) => url.replace(`:${param}`, '7'),
        callRoutes()[name][1],
      );
      expect(asked).toEqual([
        {
          url: CUSTOMER_API_BASE + path,
          headers: { accept: 'application/json', ...requestHeaders(getState()) },
        },
      ]);
    }
  });

  it('is nothing where the screen would not ask: no id, an id that is none, another screen', () => {
    expect(firstQuery({ pathname: '/cruuency', search: '?code=EURUSD&id=7' }, 'ar')).toBeDefined();
    expect(firstQuery({ pathname: '/instrument', search: '?code=EURUSD&id=7' }, 'ar')).toBeDefined();
    for (const search of ['?code=EURUSD', '?id=', '?id=abc', '?id=-1', '?id=1.5']) {
      expect(firstQuery({ pathname: '/cruuency', search }, 'en')).toBeUndefined();
      expect(firstQuery({ pathname: '/instrument', search }, 'en')).toBeUndefined();
    }
    expect(firstQuery({ pathname: '/market', search: '?id=7' }, 'en')).toBeUndefined();
    expect(firstQuery({ pathname: '/detail', search: '?id=7' }, 'en')).toBeUndefined();
  });
});
