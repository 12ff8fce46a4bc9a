import type { Redis } from 'ioredis';
import type { EventBus } from '../../platform/bus.ts';
import type { Logger } from '../../platform/logger.ts';
import type { MarketService } from './market.service.ts';
import { quoteToWire } from './market.wire.ts';
import { QUOTES_TOPIC } from './quote-hub.ts';

const LEADER_KEY = 'swx:market:feed-leader';
const LEASE_MS = 3000;

/**
 * Publishes a quote batch on the bus once a second, on the second. Every node could compute the
 * same batch (the feed is a function of time), but exactly one publishes so clients get each tick
 * once: with Redis, the node holding a short lease in Redis; without, this node. While Redis is
 * unreachable every node leads and its batches reach its own clients only (the bus delivers locally).
 */
export class QuoteFeed {
  private timer: NodeJS.Timeout | null = null;
  private leader = false;
  /** Redis was found unreachable (and has not been ready since): this node leads alone. */
  private redisFailed = false;
  published = 0;
  private readonly market: MarketService;
  private readonly bus: EventBus;
  private readonly redis: Redis | null;
  private readonly nodeId: string;
  private readonly logger: Logger | undefined;
  private readonly leaderTicks: ((t: number) => Promise<void>)[] = [];
  private readonly now: () => number;

  constructor(deps: {
    market: MarketService;
    bus: EventBus;
    redis: Redis | null;
    nodeId: string;
    logger?: Logger;
    /** Epoch milliseconds of the market's clock (platform/clock.ts). */
    now?: () => number;
  }) {
    this.now = deps.now ?? (() => Date.now());
    this.market = deps.market;
    this.bus = deps.bus;
    this.redis = deps.redis;
    this.nodeId = deps.nodeId;
    this.logger = deps.logger;
  }

  /** Work that runs on the leading node once per tick, after the batch is published (not awaited). */
  onLeaderTick(listener: (t: number) => Promise<void>): void {
    this.leaderTicks.push(listener);
  }

  start(): void {
    const schedule = () => {
      this.timer = setTimeout(
        () => {
          void this.tick().finally(() => {
            if (this.timer) schedule();
          });
        },
        1000 - (Date.now() % 1000) + 5,
      );
      this.timer.unref();
    };
    schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * The lease in Redis; Redis unreachable: every node leads alone (its own clients' quotes, its own
   * ticks). A node whose connection is still being made at its start does not lead until it knows:
   * another node may hold the lease, and this node's batches would reach that node's clients too
   * (the bus may already be connected). Unreachable is a failed connection or command, not one
   * still being made (ioredis says `reconnecting` between attempts).
   */
  private async lead(): Promise<boolean> {
    if (!this.redis) return true;
    const status = this.redis.status;
    if (status === 'reconnecting' || status === 'end' || status === 'close') this.redisFailed = true;
    if (status !== 'ready') return this.redisFailed;
    this.redisFailed = false;
    try {
      const won = await this.redis.set(LEADER_KEY, this.nodeId, 'PX', LEASE_MS, 'NX');
      if (won === 'OK') return true;
      if ((await this.redis.get(LEADER_KEY)) === this.nodeId) {
        await this.redis.pexpire(LEADER_KEY, LEASE_MS);
        return true;
      }
      return false;
    } catch (error) {
      this.logger?.warn({ err: error }, 'quote feed: leader lease check failed; leading alone');
      this.redisFailed = true;
      return true;
    }
  }

  async tick(): Promise<void> {
    const leading = await this.lead();
    if (leading !== this.leader) {
      this.leader = leading;
      this.logger?.info({ node: this.nodeId, leading }, 'quote feed leadership changed');
    }
    if (!leading) return;
    const t = Math.floor(this.now() / 1000);
    // The batch on the bus is what /message clients receive: in the wire's names.
    const batch = this.market.quotes(t).map(quoteToWire);
    if (batch.length > 0) {
      await this.bus.publish(QUOTES_TOPIC, batch);
      this.published += 1;
    }
    for (const listener of this.leaderTicks)
      void listener(t).catch((error: unknown) => this.logger?.error({ err: error }, 'leader tick failed'));
  }
}
