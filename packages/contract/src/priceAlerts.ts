import { z } from 'zod/mini';
import { priceString } from './market.ts';

/*
 * Price alerts (issue 38): above or below a price, or a move of a stated percentage over a day, on
 * any instrument. `above` fires when the bid rises to the level, `below` when the ask falls to it,
 * `move` when the instrument's 24-hour change (the price now against the price 24 hours earlier,
 * the change every market screen shows) reaches ± the stated percentage. Each fires once per
 * crossing: once in all unless `repeat`, then again each time the price has gone back across the
 * level first. At most 100 active alerts per customer (refusal 10071). Delivered as a notice, by
 * mail and by Web Push to the customer's subscribed browsers (when the service has VAPID keys).
 */

export const PRICE_ALERT_KINDS = ['above', 'below', 'move_pct'] as const;
export type PriceAlertKind = (typeof PRICE_ALERT_KINDS)[number];
export const PRICE_ALERT_STATES = ['active', 'fired', 'cancelled'] as const;
export type PriceAlertState = (typeof PRICE_ALERT_STATES)[number];
/** Active alerts a customer may have at once. */
export const PRICE_ALERT_LIMIT = 100;

/** A percentage with at most two decimals (basis points on the server), 0.01 to 1000. */
export const alertPercent = z.string().check(z.regex(/^(?:[1-9]\d{0,2}|0)(?:\.\d{1,2})?$/));

export const createPriceAlertBody = z.object({
  code: z.string().check(z.regex(/^[A-Z0-9]{2,16}$/)),
  kind: z.enum(PRICE_ALERT_KINDS),
  /** The price of `above` and `below` (at most the instrument's decimals). */
  level: z.optional(priceString),
  /** The percentage of `move_pct` ("2.5" for 2.5 %). */
  percent: z.optional(alertPercent),
  repeat: z.boolean(),
});
export type CreatePriceAlertBody = z.infer<typeof createPriceAlertBody>;

export const priceAlertView = z.object({
  id: z.int(),
  code: z.string(),
  kind: z.enum(PRICE_ALERT_KINDS),
  level: z.nullable(z.string()),
  percent: z.nullable(z.string()),
  repeat: z.boolean(),
  state: z.enum(PRICE_ALERT_STATES),
  /** How many times it has fired. */
  fired: z.int(),
  firedAt: z.nullable(z.string()),
  firedPrice: z.nullable(z.string()),
  createdAt: z.string(),
});
export type PriceAlertView = z.infer<typeof priceAlertView>;

export const priceAlertList = z.object({
  items: z.array(priceAlertView),
  limit: z.int(),
  active: z.int(),
});
export type PriceAlertList = z.infer<typeof priceAlertList>;

export const priceAlertIdBody = z.object({ id: z.int().check(z.minimum(1)) });

/** The service's VAPID public key (base64url), or null when push notifications are off. */
export const pushKey = z.object({ publicKey: z.nullable(z.string()) });

/** A browser's PushSubscription as `toJSON()` gives it; the endpoint must be https. */
export const pushSubscriptionBody = z.object({
  endpoint: z.string().check(z.maxLength(1024), z.regex(/^https:\/\/[^\s/]+\/\S*$/)),
  keys: z.object({
    p256dh: z.string().check(z.regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/)),
    auth: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,32}={0,2}$/)),
  }),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushEndpointBody = z.object({ endpoint: z.string().check(z.maxLength(1024)) });
