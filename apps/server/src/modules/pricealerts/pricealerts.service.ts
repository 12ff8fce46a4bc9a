import {
  Code,
  type CreatePriceAlertBody,
  formatMinor,
  PRICE_ALERT_LIMIT,
  type PriceAlertList,
  type PriceAlertView,
  type PushSubscriptionBody,
  plainDecimal,
  priceTicks,
} from '@swx/contract';
import type { EventBus } from '../../platform/bus.ts';
import type { Database } from '../../platform/db.ts';
import { ApiError } from '../../platform/http.ts';
import type { MarketService } from '../market/market.service.ts';
import { tickQuote } from '../market/pricing.ts';
import { type AlertWatch, conditionHolds } from './pricealerts.index.ts';
import type { Vapid } from './pricealerts.push.ts';
import {
  type AlertRow,
  alertsOf,
  cancelAlert,
  countActive,
  deletePush,
  insertAlert,
  lockCustomerAlerts,
  upsertPush,
} from './pricealerts.repository.ts';

/** Bus topic of alert changes, so every node's index learns of alerts set or cancelled on another. */
export const PRICE_ALERTS_TOPIC = 'pricealerts.changed';
export type AlertChange = { type: 'created' | 'cancelled'; id: number };

/** The 24-hour change (a ratio) in basis points, toward zero: the market's figure, as screens show it. */
export const changeBp = (ratio: number): number => Math.trunc(Math.round(ratio * 1e8) / 1e4);

/** The bid, ask (ticks) and 24-hour change (bp) of an instrument at second t; null when it is not priced. */
export function alertQuote(
  market: MarketService,
  instrumentId: number,
  t: number,
): { bid: number; ask: number; changeBp: number } | null {
  const instrument = market.instrumentById(instrumentId);
  if (!instrument || !market.isOpen(instrument, t)) return null;
  try {
    const q = tickQuote(instrument, t, market.source);
    return {
      bid: Number(q.bid),
      ask: Number(q.ask),
      changeBp: changeBp(market.source.change24h(instrument, t)),
    };
  } catch {
    return null;
  }
}

/** An alert row as the index watches it. */
export const watchOf = (row: AlertRow): AlertWatch => ({
  id: row.id,
  instrumentId: row.instrumentId,
  kind: row.kind,
  level: row.levelTicks === null ? null : Number(row.levelTicks),
  pctBp: row.pctBp,
  armed: row.armed,
});

/** A percentage in basis points as the customer wrote it ("2.5"). */
export const percentText = (bp: number): string => plainDecimal(formatMinor(BigInt(bp), 2));

/**
 * The customer's side of price alerts: set (at most 100 active), list, cancel; and the browsers
 * subscribed to their push notifications. Evaluation is the engine's (pricealerts.engine.ts).
 */
export class PriceAlertsService {
  readonly db: Database;
  readonly market: MarketService;
  private readonly bus: EventBus;
  private readonly vapid: Vapid | null;
  private readonly now: () => number;

  constructor(deps: {
    db: Database;
    market: MarketService;
    bus: EventBus;
    vapid: Vapid | null;
    now: () => number;
  }) {
    this.db = deps.db;
    this.market = deps.market;
    this.bus = deps.bus;
    this.vapid = deps.vapid;
    this.now = deps.now;
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** The alert's figures: a level in ticks at the instrument's decimals, or a percentage in bp. */
  private figures(
    body: CreatePriceAlertBody,
    decimals: number,
  ): { levelTicks: bigint | null; pctBp: number | null } {
    if (body.kind === 'move_pct') {
      const bp = body.percent === undefined ? null : priceTicks(body.percent, 2);
      if (bp === null || bp <= 0n || bp > 100_000n || body.level !== undefined)
        throw new ApiError(Code.INVALID_INPUT, [{ path: 'percent', issue: 'invalid' }]);
      return { levelTicks: null, pctBp: Number(bp) };
    }
    const ticks = body.level === undefined ? null : priceTicks(body.level, decimals);
    if (
      ticks === null ||
      ticks <= 0n ||
      ticks > BigInt(Number.MAX_SAFE_INTEGER) ||
      body.percent !== undefined
    )
      throw new ApiError(Code.INVALID_INPUT, [{ path: 'level', issue: 'invalid' }]);
    return { levelTicks: ticks, pctBp: null };
  }

  /**
   * Sets an alert. It fires at the first crossing after now: one whose condition already holds at
   * the current price starts disarmed (it fires once the price has gone back and crossed again).
   */
  async create(userId: number, body: CreatePriceAlertBody): Promise<PriceAlertView> {
    const instrument = this.market.instrument(body.code);
    if (!instrument) throw new ApiError(Code.NOT_FOUND);
    const { levelTicks, pctBp } = this.figures(body, instrument.decimals);
    const t = this.seconds();
    const quote = alertQuote(this.market, instrument.id, t);
    const watch = { kind: body.kind, level: levelTicks === null ? null : Number(levelTicks), pctBp };
    const holds = quote ? conditionHolds(watch, quote.bid, quote.ask, quote.changeBp) : false;
    const row = await this.db.transaction(async (tx) => {
      await lockCustomerAlerts(tx, userId);
      if ((await countActive(tx, userId)) >= PRICE_ALERT_LIMIT)
        throw new ApiError(Code.PRICE_ALERT_LIMIT, { limit: PRICE_ALERT_LIMIT });
      return insertAlert(tx, {
        userId,
        instrumentId: instrument.id,
        kind: body.kind,
        levelTicks,
        priceDecimals: instrument.decimals,
        pctBp,
        repeat: body.repeat,
        armed: !holds,
        changedTick: t,
        at: new Date(this.now()).toISOString(),
      });
    });
    await this.bus.publish(PRICE_ALERTS_TOPIC, { type: 'created', id: row.id } satisfies AlertChange);
    return this.view(row);
  }

  async list(userId: number): Promise<PriceAlertList> {
    const rows = await alertsOf(this.db, userId, 500);
    return {
      items: rows.map((row) => this.view(row)),
      limit: PRICE_ALERT_LIMIT,
      active: rows.filter((row) => row.state === 'active').length,
    };
  }

  /** Cancels the customer's active alert; another customer's id (or one no longer active) changes nothing: 10028. */
  async cancel(userId: number, id: number): Promise<null> {
    if (!(await cancelAlert(this.db, userId, id))) throw new ApiError(Code.NOT_FOUND);
    await this.bus.publish(PRICE_ALERTS_TOPIC, { type: 'cancelled', id } satisfies AlertChange);
    return null;
  }

  pushKey(): { publicKey: string | null } {
    return { publicKey: this.vapid?.publicKey ?? null };
  }

  async subscribePush(userId: number, body: PushSubscriptionBody): Promise<null> {
    if (!this.vapid) throw new ApiError(Code.SERVICE_UNAVAILABLE);
    await upsertPush(this.db, {
      userId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      at: new Date(this.now()).toISOString(),
    });
    return null;
  }

  async unsubscribePush(userId: number, endpoint: string): Promise<null> {
    await deletePush(this.db, userId, endpoint);
    return null;
  }

  /** The instrument's code (for the wire and the texts). */
  codeOf(instrumentId: number): string {
    return this.market.instrumentById(instrumentId)?.code ?? String(instrumentId);
  }

  view(row: AlertRow): PriceAlertView {
    return {
      id: row.id,
      code: this.codeOf(row.instrumentId),
      kind: row.kind,
      level: row.levelTicks === null ? null : formatMinor(row.levelTicks, row.priceDecimals),
      percent: row.pctBp === null ? null : percentText(row.pctBp),
      repeat: row.repeat,
      state: row.state,
      fired: row.fireCount,
      firedAt: row.firedAt,
      firedPrice: row.firedPrice === null ? null : formatMinor(row.firedPrice, row.priceDecimals),
      createdAt: row.createdAt,
    };
  }
}
