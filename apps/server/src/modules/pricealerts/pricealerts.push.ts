import type { Agent } from 'node:https';
import type { Config } from '../../platform/config.ts';
import type { PushRow } from './pricealerts.repository.ts';

/** The service's VAPID key pair and subject (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT). */
export type Vapid = { publicKey: string; privateKey: string; subject: string };

/** Push is on with all three settings, off with none; some but not all is refused at start. */
export function vapidOf(settings: Config['vapid']): Vapid | null {
  const { publicKey, privateKey, subject } = settings ?? {};
  if (!publicKey && !privateKey && !subject) return null;
  if (!publicKey || !privateKey || !subject)
    throw new Error(
      'VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT: set all three for push notifications, or none',
    );
  return { publicKey, privateKey, subject };
}

/** What a push notification of a price alert carries (the service worker shows it). */
export type PushPayload = { title: string; body: string; url: string; tag: string };

/**
 * Sends one notification to one browser subscription: a standard Web Push request (RFC 8030) with
 * the payload encrypted for the subscription (RFC 8291, aes128gcm) and a VAPID signature (RFC
 * 8292). `gone`: the push service no longer knows the subscription (404 or 410), so it is to be
 * deleted; `failed`: anything else (tried again at the next firing, not now).
 */
export async function sendPush(
  vapid: Vapid,
  subscription: Pick<PushRow, 'endpoint' | 'p256dh' | 'auth'>,
  payload: PushPayload,
  agent?: Agent,
): Promise<'sent' | 'gone' | 'failed'> {
  // The Web Push library is loaded with the first notification, not at start.
  const { default: webpush } = await import('web-push');
  try {
    await webpush.sendNotification(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: vapid,
        TTL: 24 * 3600,
        contentEncoding: 'aes128gcm',
        timeout: 10_000,
        urgency: 'high',
        ...(agent ? { agent } : {}),
      },
    );
    return 'sent';
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    return status === 404 || status === 410 ? 'gone' : 'failed';
  }
}
