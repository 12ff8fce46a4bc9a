/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { type CallName, CUSTOMER_API_BASE, calls } from './calls.ts';
import { ALL_CODES, Code, httpStatusFor, isSuccessCode } from './codes.ts';
import { LANGUAGES } from './languages.ts';
import { CATALOGUE, messageFor } from './messages/index.ts';
import { buildOpenApi } from './openapi.ts';

describe('error catalogue', () => {
  it('covers spec §8: 10001-10025, 10091, 20001-20005, plus ours', () => {
    for (let code = 10001; code <= 10025; code++) expect(ALL_CODES).toContain(code);
    for (let code = 20001; code <= 20005; code++) expect(ALL_CODES).toContain(code);
    expect(ALL_CODES).toContain(10091);
    for (const ours of [Code.INVALID_INPUT, Code.TOO_MANY_REQUESTS, Code.NOT_FOUND, Code.FORBIDDEN]) {
      expect(ALL_CODES).toContain(ours);
    }
  });

  it('has a non-empty message for every code in every language', () => {
    for (const language of LANGUAGES) {
      expect(Object.keys(CATALOGUE[language]).map(Number).sort()).toEqual([...ALL_CODES].sort());
      for (const code of ALL_CODES)
        expect(messageFor(code, language).trim().length, `${language} ${code}`).toBeGreaterThan(0);
    }
  });

  it('is really translated: no language repeats the English text for most codes', () => {
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const same = ALL_CODES.filter((code) => CATALOGUE[language][code] === CATALOGUE.en[code]);
      expect(same.length, `${language} copies English for ${same.join(', ')}`).toBeLessThanOrEqual(1);
    }
  });

  it('pairs codes with HTTP statuses and success', () => {
    expect(httpStatusFor(Code.SESSION_EXPIRED)).toBe(401);
    expect(httpStatusFor(Code.INVALID_INPUT)).toBe(400);
    expect(httpStatusFor(Code.INSUFFICIENT_BALANCE)).toBe(200);
    expect(isSuccessCode(200)).toBe(true);
    expect(isSuccessCode(20004)).toBe(true);
    expect(isSuccessCode(10011)).toBe(false);
  });
});

describe('contract', () => {
  it('declares every call of spec §7', () => {
    const paths = Object.values(calls).map((c) => `${c.method} ${c.path}`);
    for (const expected of [
      'GET /login/checkUserNameOrPhone',
      'POST /login/register',
      'POST /login/login',
      'POST /login/sendCode',
      'POST /login/sendSmsCode',
      'POST /login/loginBy:provider',
      'GET /index/listMarketByType',
      'GET /index/getKValueByCodeAndDate',
      'GET /index/getMarketInfo/:id',
      'GET /index/listContents/:type',
      'GET /index/listContents/:type/:x',
      'GET /index/getContentsById/:id',
      'GET /index/getParamByKey/:key',
      'GET /index/listNft',
      'POST /order/buySmart',
      'GET /order/listSmartOrder',
      'POST /order/buyOptions',
      'GET /order/getOptionsOrderById/:id',
      'GET /order/listOptionsOrder',
      'POST /user/identification',
      'POST /user/getUserInfo',
      'POST /user/recharge',
      'POST /user/withdrawal',
      'POST /user/buyNft',
      'GET /user/listNft',
      'POST /user/loan',
      'GET /user/listRecharge',
      'GET /user/listWithdrwal',
      'GET /user/listLoanRecord',
      'POST /user/repassword',
      'POST /user/completeLoan',
      'GET /user/getNoticeList',
      'GET /user/readNotice',
      'GET /finance/vipProject',
      'POST /finance/vipProject/invest',
      'GET /finance/vipProject/userProject',
      'POST /finance/vipProject/redeem',
      'GET /finance/item',
      'GET /finance/item/userProject',
      'POST /finance/item/apply',
      'GET /finance/item/wallet',
      'GET /finance/item/price',
      'GET /finance/item/myInvestment',
      'POST /finance/item/instantExchangeItem',
      'POST /finance/item/instantExchange',
      'POST /finance/item/redeem',
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it('generates an OpenAPI document with every call and its path parameters', () => {
    const doc = buildOpenApi('test') as {
      paths: Record<
        string,
        Record<string, { operationId: string; parameters: { name: string; in: string }[] }>
      >;
    };
    const operations = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod));
    expect(operations).toHaveLength(Object.keys(calls).length);
    const byId = doc.paths[`${CUSTOMER_API_BASE}/index/getContentsById/{id}`]?.get;
    expect(byId?.parameters.some((p) => p.name === 'id' && p.in === 'path')).toBe(true);
    expect(byId?.parameters.some((p) => p.name === 'virtually' && p.in === 'header')).toBe(true);
  });

  it('takes each file of calls/ whole, and each call name from one file only', () => {
    const files = import.meta.glob<Record<string, Record<string, unknown>>>(
      ['./calls/*.ts', '!./calls/define.ts', '!./calls/load.ts'],
      {
        eager: true,
      },
    );
    const declared = Object.values(files).flatMap((domain) => Object.values(domain).flatMap(Object.entries));
    expect(declared.map(([name]) => name).sort()).toEqual(Object.keys(calls).sort());
    for (const [name, definition] of declared) expect(calls[name as CallName], name).toBe(definition);
  });
});
