import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callApi } from '../../app/api.ts';
import { enablePush, PushUnavailable } from './push.ts';

vi.mock('../../app/api.ts', () => ({ callApi: vi.fn(async () => null) }));

/**
 * Turning push on when the browser gives no subscription, or the server does not take it: nothing
 * is kept on either side. (tests/e2e/price-alerts-push.test.ts drives the same in Chromium, where an
 * off-the-record profile refuses at once; a profile whose push service is out of reach never answers.)
 */
const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

function subscription() {
  const unsubscribe = vi.fn(async () => true);
  const value = {
    endpoint: 'https://push.example/abc',
    toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'p', auth: 'a' } }),
    unsubscribe,
  };
  return { value, unsubscribe };
}

function browser(subscribe: () => Promise<unknown>) {
  const pushManager = { getSubscription: vi.fn(async () => null), subscribe: vi.fn(subscribe) };
  vi.stubGlobal('Notification', { requestPermission: async () => 'granted' });
  vi.stubGlobal('navigator', { serviceWorker: { ready: Promise.resolve({ pushManager }) } });
  return pushManager;
}

beforeEach(() => {
  vi.mocked(callApi).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('enablePush', () => {
  it('gives the subscription to the server with the service key', async () => {
    const given = subscription();
    const pushManager = browser(async () => given.value);
    await expect(enablePush(KEY)).resolves.toBe('on');
    const options = pushManager.subscribe.mock.calls[0] as unknown as [PushSubscriptionOptionsInit];
    expect(Buffer.from(options[0].applicationServerKey as Uint8Array).toString('base64url')).toBe(KEY);
    expect(callApi).toHaveBeenCalledWith('subscribePush', {
      body: { endpoint: 'https://push.example/abc', keys: { p256dh: 'p', auth: 'a' } },
    });
  });

  it('says the browser refused, and saves nothing', async () => {
    browser(async () => {
      throw new DOMException('Registration failed - permission denied', 'AbortError');
    });
    await expect(enablePush(KEY)).rejects.toBeInstanceOf(PushUnavailable);
    expect(callApi).not.toHaveBeenCalled();
  });

  it('gives up on a push service that does not answer, and drops a subscription that comes late', async () => {
    vi.useFakeTimers();
    const given = subscription();
    let answer: (value: unknown) => void = () => undefined;
    browser(() => new Promise((resolve) => (answer = resolve)));
    const enabling = enablePush(KEY);
    const failed = expect(enabling).rejects.toBeInstanceOf(PushUnavailable);
    await vi.advanceTimersByTimeAsync(30_000);
    await failed;
    answer(given.value);
    await vi.waitFor(() => expect(given.unsubscribe).toHaveBeenCalled());
    expect(callApi).not.toHaveBeenCalled();
  });

  it('drops the browser subscription the server did not take', async () => {
    const given = subscription();
    browser(async () => given.value);
    vi.mocked(callApi).mockRejectedValueOnce(new Error('refused'));
    await expect(enablePush(KEY)).rejects.toThrow('refused');
    expect(given.unsubscribe).toHaveBeenCalled();
  });
});
