import { afterEach, describe, expect, it } from 'vitest';
import { answerCallsWith, FIRST_CALL_FRESH_MS, takeFirstCall } from './firstCall.ts';

const url = '/swx/customer/index/getMarketInfo/7';
const headers = { accept: 'application/json', 'accept-language': 'en', virtually: 'NO' };

/** The page as boot.js leaves it: its first call sent `ago` ms before now. */
function sent(ago = 0) {
  const response = Promise.resolve(new Response('{"code":200}'));
  Object.assign(globalThis, {
    window: { swxFirstCall: { url, headers: { ...headers }, response, at: performance.now() - ago } },
  });
  return response;
}

afterEach(() => {
  Reflect.deleteProperty(globalThis, 'window');
  answerCallsWith(undefined);
});

describe("the page's first call (sent by boot.js before the app runs)", () => {
  it("answers the screen's own call once: the same URL and headers", () => {
    const response = sent();
    expect(takeFirstCall(url, { ...headers })).toBe(response);
    expect(takeFirstCall(url, { ...headers })).toBeUndefined();
  });

  it('is not taken by another request, and stays for the one it is', () => {
    const response = sent();
    expect(takeFirstCall('/swx/customer/index/getMarketInfo/8', headers)).toBeUndefined();
    // Signed in since, another language, another book: the app's headers differ.
    expect(takeFirstCall(url, { ...headers, authorization: 'a-token' })).toBeUndefined();
    expect(takeFirstCall(url, { ...headers, 'accept-language': 'ar' })).toBeUndefined();
    expect(takeFirstCall(url, { accept: 'application/json', 'accept-language': 'en' })).toBeUndefined();
    expect(takeFirstCall(url, headers)).toBe(response);
  });

  it('is not taken once it is stale: the screen sends its own call', () => {
    sent(FIRST_CALL_FRESH_MS + 1);
    expect(takeFirstCall(url, headers)).toBeUndefined();
    sent(FIRST_CALL_FRESH_MS - 1000);
    expect(takeFirstCall(url, headers)).toBeDefined();
  });

  it('is nothing where boot.js sent none (vite dev server, another screen)', () => {
    Object.assign(globalThis, { window: {} });
    expect(takeFirstCall(url, headers)).toBeUndefined();
  });

  it("is the server's answer to every call while it draws a screen with its data, and nothing after", async () => {
    const asked: string[] = [];
    answerCallsWith(async (called) => {
      asked.push(called);
      return new Response('{"code":200}');
    });
    await takeFirstCall(url, headers);
    await takeFirstCall('/swx/customer/index/getMarketInfo/8', headers);
    expect(asked).toEqual([url, '/swx/customer/index/getMarketInfo/8']);
    answerCallsWith(undefined);
    expect(takeFirstCall(url, headers)).toBeUndefined();
  });
});
