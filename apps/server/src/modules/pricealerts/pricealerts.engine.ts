import type { EventBus } from '../../platform/bus.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AlertDelivery } from './pricealerts.deliver.ts';
import { type AlertCrossing, PriceAlertIndex } from './pricealerts.index.ts';
import {
  type AlertRow,
  activeAlertsAfter,
  claimFiring,
  claimRearm,
  findAlert,
} from './pricealerts.repository.ts';
import {
  type AlertChange,
  alertQuote,
  PRICE_ALERTS_TOPIC,
  type PriceAlertsService,
  watchOf,
} from './pricealerts.service.ts';

/** A full reload from the database this often (alerts whose bus events were lost). */
const RELOAD_EVERY_SECONDS = 60;

/**
 * Evaluates price alerts on the feed's ticks. Every node keeps the index of active alerts (loaded
 * from the database, kept current by bus events and a reload every minute); the positions'
 * trigger engine, on the node that leads the quote feed, tells it each tick. A crossing is claimed in the database by a conditional
 * update that only a tick later than the alert's last change can make (repository
 * `claimFiring`/`claimRearm`), so two nodes evaluating the same ticks — or a node replaying ticks
 * another has evaluated — deliver each crossing once. A claim refused means another node moved the
 * alert first: it is placed again as the database has it.
 */
export class PriceAlertEngine {
  readonly index = new PriceAlertIndex();
  private readonly rows = new Map<number, AlertRow>();
  private readonly alerts: PriceAlertsService;
  private readonly delivery: AlertDelivery;
  private readonly bus: EventBus;
  private readonly logger: Logger | undefined;
  private unsubscribe: (() => void) | null = null;
  private lastReload = 0;
  private lastTick = 0;
  private running: Promise<void> = Promise.resolve();
  readonly stats = { fired: 0, rearmed: 0, refused: 0 };

  constructor(deps: { alerts: PriceAlertsService; delivery: AlertDelivery; bus: EventBus; logger?: Logger }) {
    this.alerts = deps.alerts;
    this.delivery = deps.delivery;
    this.bus = deps.bus;
    this.logger = deps.logger;
  }

  async start(): Promise<void> {
    this.unsubscribe = this.bus.subscribe(PRICE_ALERTS_TOPIC, (message) => {
      const change = message as AlertChange;
      if (change.type === 'cancelled') this.forget(change.id);
      else void this.refresh(change.id);
    });
    await this.reload();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private track(row: AlertRow): void {
    if (row.state !== 'active') {
      this.forget(row.id);
      return;
    }
    this.rows.set(row.id, row);
    this.index.place(watchOf(row));
  }

  private forget(id: number): void {
    this.rows.delete(id);
    this.index.remove(id);
  }

  /** Places one alert again as the database has it (after a bus event, or a refused claim). */
  async refresh(id: number): Promise<void> {
    const row = await findAlert(this.alerts.db, id);
    if (row) this.track(row);
    else this.forget(id);
  }

  /** Every active alert, read anew. */
  async reload(): Promise<void> {
    const fresh: AlertRow[] = [];
    for (let after = 0; ; ) {
      const page = await activeAlertsAfter(this.alerts.db, after, 5000);
      fresh.push(...page);
      if (page.length < 5000) break;
      after = (page[page.length - 1] as AlertRow).id;
    }
    this.index.clear();
    this.rows.clear();
    for (const row of fresh) this.track(row);
  }

  /** Told each tick by the positions' trigger engine (the feed's leading node): every instrument with alerts, at tick t (calls queue). */
  tick(t: number): Promise<void> {
    this.running = this.running
      .then(() => this.run(t))
      .catch((error: unknown) => {
        this.logger?.error({ err: error }, 'price alerts: tick failed');
      });
    return this.running;
  }

  private async run(t: number): Promise<void> {
    if (t <= this.lastTick) return;
    this.lastTick = t;
    if (t - this.lastReload >= RELOAD_EVERY_SECONDS) {
      this.lastReload = t;
      await this.reload();
    }
    for (const instrumentId of this.index.instrumentIds()) {
      const quote = alertQuote(this.alerts.market, instrumentId, t);
      if (quote) await this.evaluate(t, instrumentId, quote.bid, quote.ask, quote.changeBp);
    }
  }

  /** One instrument at tick t: the alerts its bid, ask (ticks) and 24-hour change (bp) crossed, claimed and told. */
  async evaluate(
    t: number,
    instrumentId: number,
    bid: number,
    ask: number,
    changeBp: number | null,
  ): Promise<void> {
    const crossings = this.index.crossed(instrumentId, bid, ask, changeBp);
    for (const crossing of crossings) {
      try {
        await this.resolve(t, crossing, changeBp ?? 0);
      } catch (error) {
        this.logger?.error({ err: error, alert: crossing.id }, 'price alerts: claim failed');
        const row = this.rows.get(crossing.id);
        if (row) this.index.place(watchOf(row));
      }
    }
  }

  private async resolve(t: number, crossing: AlertCrossing, changeBp: number): Promise<void> {
    const known = this.rows.get(crossing.id);
    if (!known) return;
    if (!crossing.fire) {
      if (await claimRearm(this.alerts.db, crossing.id, t)) {
        this.stats.rearmed += 1;
        this.track({ ...known, armed: true, changedTick: t });
      } else await this.refused(crossing.id);
      return;
    }
    const to = await this.delivery.recipient(known.userId);
    const price = BigInt(crossing.price);
    const firing = await this.alerts.db.transaction(async (tx) => {
      const row = await claimFiring(tx, crossing.id, t, price, new Date(t * 1000).toISOString());
      if (!row) return null;
      const code = this.alerts.codeOf(row.instrumentId);
      const f = { row, code, type: this.alerts.market.typeOf(code), price, changeBp };
      await this.delivery.noticeInTx(tx, f, to);
      return f;
    });
    if (!firing) return this.refused(crossing.id);
    this.stats.fired += 1;
    this.track(firing.row);
    await this.delivery.outside(firing, to);
  }

  private async refused(id: number): Promise<void> {
    this.stats.refused += 1;
    await this.refresh(id);
  }
}
