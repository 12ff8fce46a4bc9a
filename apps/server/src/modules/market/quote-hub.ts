import type { WebSocket } from 'ws';
import type { EventBus } from '../../platform/bus.ts';

/** Quotes published on this topic reach every /message client of every node. */
export const QUOTES_TOPIC = 'market.quotes';

/** A client whose socket holds more unsent bytes than this is skipped for a batch, never buffered without bound. */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * Fans quote batches out to the websocket clients of this node: each batch is serialized once and
 * the same string is written to every socket.
 */
export class QuoteHub {
  private readonly clients = new Set<WebSocket>();
  private readonly unsubscribe: () => void;
  skipped = 0;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.subscribe(QUOTES_TOPIC, (batch) => this.broadcast(batch));
  }

  add(socket: WebSocket): void {
    this.clients.add(socket);
    socket.on('close', () => this.clients.delete(socket));
    socket.on('error', () => this.clients.delete(socket));
  }

  get size(): number {
    return this.clients.size;
  }

  broadcast(batch: unknown): void {
    if (!Array.isArray(batch) || this.clients.size === 0) return;
    const text = JSON.stringify(batch);
    for (const socket of this.clients) {
      if (socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.skipped += 1;
        continue;
      }
      socket.send(text);
    }
  }

  close(): void {
    this.unsubscribe();
    for (const socket of this.clients) socket.close(1001, 'server shutting down');
    this.clients.clear();
  }
}
