import { callApi } from '../../app/api.ts';

/**
 * This browser's Web Push subscription for price alerts, through the app's service worker
 * (public/sw.js shows each pushed alert and opens its instrument page on a click).
 */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.ready;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  return (await registration()).pushManager.getSubscription();
}

const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};

/**
 * The browser gave no subscription: it refused (a private window refuses with "permission
 * denied" even when notifications are allowed) or its push service did not answer in time.
 */
export class PushUnavailable extends Error {}

/** How long the browser's push service may take to subscribe (it retries, unanswered, when unreachable). */
const SUBSCRIBE_WAIT_MS = 30_000;

async function subscribed(pushManager: PushManager, publicKey: string): Promise<PushSubscription> {
  const existing = await pushManager.getSubscription();
  if (existing) return existing;
  const subscribing = pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PushUnavailable('the push service did not answer')),
      SUBSCRIBE_WAIT_MS,
    );
  });
  try {
    return await Promise.race([subscribing, late]);
  } catch (error) {
    // A subscription given after the wait is dropped: the browser keeps none the server does not know.
    void subscribing.then((given) => given.unsubscribe()).catch(() => undefined);
    throw error instanceof PushUnavailable ? error : new PushUnavailable(String(error));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks for permission, subscribes with the service's key and gives the subscription to the server;
 * a subscription the server did not take is dropped again. `PushUnavailable` when the browser gives none.
 */
export async function enablePush(publicKey: string): Promise<'on' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const subscription = await subscribed((await registration()).pushManager, publicKey);
  const json = subscription.toJSON();
  try {
    await callApi('subscribePush', {
      body: {
        endpoint: subscription.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      },
    });
  } catch (error) {
    await subscription.unsubscribe().catch(() => false);
    throw error;
  }
  return 'on';
}

export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await callApi('unsubscribePush', { body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
}
