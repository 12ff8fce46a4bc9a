import { EventEmitter } from 'node:events';
import type { Logger } from './logger.ts';

/**
 * Publish/subscribe between the modules of one node and, with Redis, between nodes. Messages are
 * JSON values; a handler that throws is logged and never breaks delivery to the others.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(topic: string, message: unknown): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe(topic: string, handler: (message: unknown) => void): () => void;
  close(): Promise<void>;
}

const TOPIC = /^[a-z][a-z0-9.:-]{0,127}$/;

function checkTopic(topic: string): void {
  if (!TOPIC.test(topic)) throw new Error(`bad topic ${JSON.stringify(topic)}`);
}

export function createMemoryBus(logger?: Logger): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: 'memory',
    async publish(topic, message) {
      checkTopic(topic);
      // Serialise as Redis would, so a message that cannot cross nodes fails on one node too.
      const copy: unknown = JSON.parse(JSON.stringify(message));
      queueMicrotask(() => emitter.emit(topic, copy));
    },
    subscribe(topic, handler) {
      checkTopic(topic);
      const safe = (message: unknown) => {
        try {
          handler(message);
        } catch (error) {
          logger?.error({ err: error, topic }, 'event handler failed');
        }
      };
      emitter.on(topic, safe);
      return () => emitter.off(topic, safe);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

export async function createRedisBus(url: string, logger?: Logger, prefix = 'swx:'): Promise<EventBus> {
  // Loaded here, not at the module's top: a node without Redis never needs the client.
  const { Redis } = await import('ioredis');
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = createMemoryBus(logger);
  const counts = new Map<string, number>();
  subscriber.on('message', (channel: string, payload: string) => {
    if (!channel.startsWith(prefix)) return;
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      logger?.warn({ channel }, 'dropped a bus message that is not JSON');
      return;
    }
    void local.publish(channel.slice(prefix.length), message);
  });
  return {
    kind: 'redis',
    async publish(topic, message) {
      checkTopic(topic);
      // Redis unreachable: this node's own subscribers still hear it (events stay on the node).
      if (publisher.status !== 'ready') return local.publish(topic, message);
      try {
        await publisher.publish(prefix + topic, JSON.stringify(message));
      } catch (error) {
        logger?.warn({ err: error, topic }, 'Redis publish failed; delivered on this node only');
        await local.publish(topic, message);
      }
    },
    subscribe(topic, handler) {
      checkTopic(topic);
      const n = counts.get(topic) ?? 0;
      counts.set(topic, n + 1);
      if (n === 0) void subscriber.subscribe(prefix + topic);
      const off = local.subscribe(topic, handler);
      return () => {
        off();
        const left = (counts.get(topic) ?? 1) - 1;
        counts.set(topic, left);
        if (left === 0) void subscriber.unsubscribe(prefix + topic);
      };
    },
    async close() {
      await local.close();
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}

/** Waits until a Redis subscription is live; publishing before that would miss the first message. */
export async function createBus(redisUrl: string | undefined, logger?: Logger): Promise<EventBus> {
  return redisUrl ? createRedisBus(redisUrl, logger) : createMemoryBus(logger);
}
