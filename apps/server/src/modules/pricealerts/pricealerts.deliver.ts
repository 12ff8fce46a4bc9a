import type { Agent } from 'node:https';
import { join } from 'node:path';
import { formatMinor, interpolate, isLanguage, type Language } from '@swx/contract';
import type { Queryable } from '../../platform/db.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail.ts';
import { localeTexts } from '../../platform/texts.ts';
import type { CustomerDirectory } from '../identity/identity.customers.ts';
import type { NoticeKind, NoticesService } from '../notices/notices.service.ts';
import { type PushPayload, sendPush, type Vapid } from './pricealerts.push.ts';
import { type AlertRow, deletePushById, pushesOf } from './pricealerts.repository.ts';
import { percentText } from './pricealerts.service.ts';

const TEXT = localeTexts<typeof import('./locales/en.json')>(join(import.meta.dirname, 'locales'));

/** The customer app's page of the alerts (the mail's link). */
export const ALERTS_PAGE_PATH = '/profile/alerts';

const KIND: Record<AlertRow['kind'], NoticeKind> = {
  above: 'price_alert_above',
  below: 'price_alert_below',
  move_pct: 'price_alert_move',
};

/** One firing as the texts name it: the instrument, the price that crossed, the 24-hour change. */
export type Firing = {
  row: AlertRow;
  code: string;
  type: number | undefined;
  price: bigint;
  changeBp: number;
};

function paramsOf(f: Firing): Record<string, string> {
  const { row } = f;
  return {
    code: f.code,
    price: formatMinor(f.price, row.priceDecimals),
    level: row.levelTicks === null ? '' : formatMinor(row.levelTicks, row.priceDecimals),
    percent: row.pctBp === null ? '' : percentText(row.pctBp),
    change: `${f.changeBp > 0 ? '+' : ''}${percentText(f.changeBp)}`,
  };
}

/** A firing's mail subject and text (the notice's words) in `language`. */
function alertTexts(f: Firing, language: Language): { subject: string; text: string } {
  const t = TEXT[language];
  const params = paramsOf(f);
  return {
    subject: interpolate(t.mail.subject, params),
    text: interpolate(t.notices[KIND[f.row.kind] as keyof typeof t.notices], params),
  };
}

/**
 * The Web Push payload of a firing in `language`: the mail's subject and text, the instrument
 * page to open on a click, and a tag per alert (a repeat replaces its earlier notification).
 */
export function alertPushPayload(f: Firing, language: Language): PushPayload {
  const { subject, text } = alertTexts(f, language);
  const query = new URLSearchParams({
    code: f.code,
    ...(f.type ? { type: String(f.type) } : {}),
    id: String(f.row.instrumentId),
  });
  return { title: subject, body: text, url: `/instrument?${query}`, tag: `price-alert-${f.row.id}` };
}

/** The customer a firing is told to: their language (English when unknown) and email, if any. */
export type Recipient = { language: Language; email: string | null };

/**
 * Tells the customer of a fired alert three ways: a notice (written in the claim's transaction, so
 * it exists exactly when the firing does), a mail in their language, and a Web Push notification
 * to each browser they subscribed, when the service has VAPID keys. A push service that answers
 * 404 or 410 no longer knows the subscription: it is deleted. Mail and push are tried once; a mail
 * that cannot go is kept by the mailer.
 */
export class AlertDelivery {
  private readonly deps: {
    notices: NoticesService;
    customers: Pick<CustomerDirectory, 'get'>;
    mailer: Mailer;
    db: Queryable;
    vapid: Vapid | null;
    publicUrl: string | undefined;
    logger?: Logger | undefined;
    /** For tests: the TLS agent of push requests (a local push service's certificate). */
    pushAgent?: Agent | undefined;
  };
  readonly sent = { notices: 0, mails: 0, pushes: 0, gone: 0 };

  constructor(deps: AlertDelivery['deps']) {
    this.deps = deps;
  }

  async recipient(userId: number): Promise<Recipient> {
    const customer = await this.deps.customers.get(userId);
    return {
      language: customer && isLanguage(customer.language) ? customer.language : 'en',
      email: customer?.email ?? null,
    };
  }

  /** The notice, in the caller's transaction (the claim's). */
  async noticeInTx(tx: Queryable, f: Firing, to: Recipient): Promise<void> {
    await this.deps.notices.notifyInTx(tx, f.row.userId, to.language, KIND[f.row.kind], paramsOf(f));
    this.sent.notices += 1;
  }

  /** The mail and the push notifications, after the claim is committed. */
  async outside(f: Firing, to: Recipient): Promise<void> {
    const { subject, text } = alertTexts(f, to.language);
    if (to.email) {
      const link = `${(this.deps.publicUrl ?? '').replace(/\/+$/, '')}${ALERTS_PAGE_PATH}`;
      const body = `${text}\n\n${interpolate(TEXT[to.language].mail.footer, { link })}\n`;
      await this.deps.mailer
        .send({ to: to.email, subject, text: body })
        .then(() => {
          this.sent.mails += 1;
        })
        .catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'price alert: mail not sent'));
    }
    await this.push(f.row.userId, alertPushPayload(f, to.language));
  }

  private async push(userId: number, payload: PushPayload): Promise<void> {
    const { vapid } = this.deps;
    if (!vapid) return;
    for (const subscription of await pushesOf(this.deps.db, userId)) {
      const outcome = await sendPush(vapid, subscription, payload, this.deps.pushAgent);
      if (outcome === 'sent') this.sent.pushes += 1;
      if (outcome === 'gone') {
        this.sent.gone += 1;
        await deletePushById(this.deps.db, subscription.id);
      }
    }
  }
}
