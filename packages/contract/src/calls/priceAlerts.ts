import { z } from 'zod/mini';
import {
  createPriceAlertBody,
  priceAlertIdBody,
  priceAlertList,
  priceAlertView,
  pushEndpointBody,
  pushKey,
  pushSubscriptionBody,
} from '../priceAlerts.ts';
import { type CallDefinition, call } from './define.ts';

/** Price alerts and the Web Push subscriptions that deliver them (`modules/pricealerts`). */
export const priceAlertsCalls = {
  createPriceAlert: call({
    method: 'POST',
    path: '/priceAlert/create',
    summary:
      'Set a price alert on an instrument: above or below a price, or a 24-hour move of a percentage; once, or once per crossing with repeat (at most 100 active: 10071)',
    auth: true,
    status: 'live',
    body: createPriceAlertBody,
    data: priceAlertView,
  }),
  listPriceAlerts: call({
    method: 'GET',
    path: '/priceAlert/list',
    summary: 'My price alerts, newest first (active, fired and cancelled)',
    auth: true,
    status: 'live',
    data: priceAlertList,
  }),
  cancelPriceAlert: call({
    method: 'POST',
    path: '/priceAlert/cancel',
    summary: 'Cancel one of my active price alerts (another customer’s id changes nothing: 10028)',
    auth: true,
    status: 'live',
    body: priceAlertIdBody,
    data: z.null(),
  }),
  getPushKey: call({
    method: 'GET',
    path: '/priceAlert/pushKey',
    summary: 'The VAPID public key for Web Push subscriptions, or null when push notifications are off',
    auth: true,
    status: 'live',
    data: pushKey,
  }),
  subscribePush: call({
    method: 'POST',
    path: '/priceAlert/subscribePush',
    summary: 'Receive my price alerts as push notifications in this browser (its PushSubscription)',
    auth: true,
    status: 'live',
    body: pushSubscriptionBody,
    data: z.null(),
  }),
  unsubscribePush: call({
    method: 'POST',
    path: '/priceAlert/unsubscribePush',
    summary: 'Stop push notifications to this browser (its endpoint)',
    auth: true,
    status: 'live',
    body: pushEndpointBody,
    data: z.null(),
  }),
} as const satisfies Record<string, CallDefinition>;
