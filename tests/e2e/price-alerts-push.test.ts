import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import {
  alertPushPayload,
  type Firing,
} from '../../apps/server/src/modules/pricealerts/pricealerts.deliver.ts';
import type { PushPayload } from '../../apps/server/src/modules/pricealerts/pricealerts.push.ts';
import { expectAccessible, screenshotTo, watchRequests } from '../support/browser.ts';
import { useApp } from '../support/e2e.ts';

/**
 * Web Push in Debian's Chromium, with the server's push on (a VAPID key pair made here).
 *
 * What this machine allows: Google's push service (FCM) is out of reach, and a Playwright context
 * is an off-the-record profile, where Chromium refuses `pushManager.subscribe` at once ("AbortError:
 * Registration failed - permission denied") although notifications are granted; so the switch must
 * say so and keep nothing. The service worker's push handler is driven through the DevTools
 * protocol (`ServiceWorker.deliverPushMessage`, what a push service's message becomes in the
 * browser) with the payload the server's own function builds for a firing.
 */
const vapid = webpush.generateVAPIDKeys();
const app = useApp({
  env: {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:alerts@swx.test',
  },
});

type Subscribed = { key: string; outcome: string };

/** Records each `pushManager.subscribe` the page makes: the key it passed and what the browser answered. */
async function watchSubscribe(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const subscribe = PushManager.prototype.subscribe;
    const calls: { key: string; outcome: string }[] = [];
    Object.assign(window, { subscribeCalls: calls });
    PushManager.prototype.subscribe = function (this: PushManager, options?: PushSubscriptionOptionsInit) {
      const raw = options?.applicationServerKey;
      const bytes =
        raw instanceof ArrayBuffer ? new Uint8Array(raw) : new Uint8Array((raw ?? []) as Uint8Array);
      const key = btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      const call = { key, outcome: 'pending' };
      calls.push(call);
      return subscribe.call(this, options).then(
        (subscription) => {
          call.outcome = `subscribed ${subscription.endpoint}`;
          return subscription;
        },
        (error: Error) => {
          call.outcome = `${error.name}: ${error.message}`;
          throw error;
        },
      );
    };
  });
}

const subscribeCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { subscribeCalls: Subscribed[] }).subscribeCalls);

/** Opens the customer's alerts with notifications granted to the app, the service worker in control. */
async function alertsPage(layout: 'desktop' | 'mobile', email: string, language: string) {
  const opened = await app.signedIn(layout, email, { language, quiet: true, serviceWorker: true });
  await opened.context.grantPermissions(['notifications'], { origin: app.server.baseUrl });
  await watchSubscribe(opened.context);
  await opened.page.goto('/profile/alerts');
  await opened.page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return opened;
}

/** Turns the switch on and waits for the browser's answer to the subscription. */
async function turnOn(page: Page): Promise<Subscribed> {
  const toggle = page.getByTestId('price-alert-push');
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  await toggle.click();
  await expect
    .poll(async () => (await subscribeCalls(page)).at(-1)?.outcome ?? 'pending')
    .not.toBe('pending');
  return (await subscribeCalls(page)).at(-1) as Subscribed;
}

describe('price alerts by Web Push in Chromium', () => {
  it('the switch subscribes with the server key, and says so when the browser gives no subscription', {
    timeout: 180_000,
  }, async () => {
    const { page, errors } = await alertsPage('desktop', 'push-switch@example.com', 'en');
    const sent = watchRequests(page, 'subscribePush');
    const answered: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('subscribePush')) answered.push(response.status());
    });
    const call = await turnOn(page);
    expect(call.key).toBe(vapid.publicKey);
    const toggle = page.getByTestId('price-alert-push');
    if (call.outcome.startsWith('subscribed ')) {
      // A browser with a reachable push service: the server took the subscription.
      await expect.poll(() => answered).toEqual([200]);
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await page.getByText('Push notifications are on for this device.').waitFor({ state: 'attached' });
    } else {
      // What this Chromium answers in an off-the-record profile.
      expect(call.outcome).toBe('AbortError: Registration failed - permission denied');
      const alert = page.getByRole('alert');
      await alert.getByText(/^Push notifications could not be turned on: /).waitFor();
      expect(await toggle.isChecked()).toBe(false);
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      expect(sent).toEqual([]);
      expect(
        await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()),
      ).toBeNull();
      await expectAccessible(page, 'desktop /profile/alerts, push refused');
      await screenshotTo(page, 'price-alerts-push-refused-desktop-en');
      // Nothing stuck: after a reload the switch is off and can be tried again.
      await page.reload();
      await expect.poll(() => toggle.isEnabled()).toBe(true);
      expect(await toggle.isChecked()).toBe(false);
    }
    expect(errors).toEqual([]);
  });

  it('says it in Arabic at 390 px, right to left', { timeout: 180_000 }, async () => {
    const { page, errors } = await alertsPage('mobile', 'push-switch-ar@example.com', 'ar');
    const call = await turnOn(page);
    if (call.outcome.startsWith('subscribed ')) return;
    await page
      .getByRole('alert')
      .getByText(/^تعذّر تشغيل إشعارات الدفع/)
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expectAccessible(page, 'mobile ar /profile/alerts, push refused');
    await screenshotTo(page, 'price-alerts-push-refused-mobile-ar');
    expect(errors).toEqual([]);
  });

  it("shows a pushed alert in the customer's language and opens the instrument page on a click", {
    timeout: 180_000,
  }, async () => {
    const { page, context, errors, session } = await alertsPage('desktop', 'push-show@example.com', 'de');
    const instrument = new URLSearchParams((await app.btcPage()).split('?')[1]);
    const firing: Firing = {
      row: {
        id: 4242,
        userId: session.userInfo.id,
        instrumentId: Number(instrument.get('id')),
        kind: 'above',
        levelTicks: 9_100_000n,
        priceDecimals: 2,
        pctBp: null,
        repeat: false,
        state: 'fired',
        armed: false,
        fireCount: 1,
        changedTick: 1,
        firedAt: null,
        firedPrice: null,
        createdAt: new Date().toISOString(),
      },
      code: 'BTCUSDT',
      type: Number(instrument.get('type')),
      price: 9_100_250n,
      changeBp: 310,
    };
    const payload = alertPushPayload(firing, 'de');
    expect(payload.url).toBe(await app.btcPage());
    await deliverPush(context, page, payload);
    let delivered = Date.now();

    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: (n.data as { url?: string } | null)?.url,
        })),
      );
    // DevTools hands the message to the worker once; a message it dropped (a worker that was
    // stopping when it came, on a loaded machine) is handed again, as a push service retries. The
    // same tag replaces a notification, so one shown is one shown, however often it came.
    await expect
      .poll(async () => {
        const now = await shown();
        if (now.length === 0 && Date.now() - delivered > 5_000) {
          await deliverPush(context, page, payload);
          delivered = Date.now();
        }
        return now;
      })
      .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: payload.url }]);
    // The server's German words, not its English ones.
    expect(payload.body).toContain('BTCUSDT');
    expect(payload.body).not.toBe(alertPushPayload(firing, 'en').body);

    // The click: headless Chromium has no notification to click and DevTools no command for it, so
    // the worker is handed a notificationclick for the notification it shows. A script-made event
    // refuses waitUntil (sw.js's call throws after it has started the navigation) and gives no
    // right to open a window: this covers the path that navigates the app's open tab.
    const [worker] = context.serviceWorkers();
    if (!worker) throw new Error('no service worker');
    await worker.evaluate(async (tag) => {
      // The worker's global scope (tests are typed for pages, not workers).
      const scope = self as unknown as EventTarget & {
        registration: ServiceWorkerRegistration;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications({ tag });
      if (!notification) throw new Error(`no notification ${tag}`);
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    }, payload.tag);
    await page.waitForURL((url) => `${url.pathname}${url.search}` === payload.url);
    await expect.poll(shown).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** A push message to the page's service worker, as the browser hands one over from its push service. */
async function deliverPush(context: BrowserContext, page: Page, payload: PushPayload): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const origin = new URL(app.server.baseUrl).origin;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => !r.isDeleted && r.scopeURL === `${origin}/`);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: await registrationId,
    data: JSON.stringify(payload),
  });
  await cdp.detach();
}
