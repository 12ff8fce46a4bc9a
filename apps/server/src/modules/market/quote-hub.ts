import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { EventBus } from '../../platform/bus.ts';

/** Quotes published on this topic reach every /message client of every node. */
export const QUOTES_TOPIC = 'market.quotes';

/** A client whose socket holds more unsent bytes than this is skipped for a batch, never buffered without bound. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** A client skipped this many batches in a row is too slow to follow the feed and is dropped. */
const MAX_SKIPS_IN_A_ROW = 10;

/**
 * Fans quote batches out to the websocket clients of this node: each batch is serialized once and
 * the same string is written to every socket.
 */
export class QuoteHub {
  private readonly clients = new Set<WebSocket>();
  private readonly skips = new WeakMap<WebSocket, number>();
  private readonly unsubscribe: () => void;
  skipped = 0;
  dropped = 0;
  batches = 0;

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
    this.batches += 1;
    // Serialized, encoded and framed once per batch: every socket gets the same bytes in one write.
    const bytes = Buffer.from(JSON.stringify(batch));
    const frame = textFrame(bytes);
    for (const socket of this.clients) {
      if (socket.readyState !== socket.OPEN) continue;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        this.skipped += 1;
        const skips = (this.skips.get(socket) ?? 0) + 1;
        this.skips.set(socket, skips);
        if (skips >= MAX_SKIPS_IN_A_ROW) {
          this.dropped += 1;
          this.clients.delete(socket);
          socket.terminate();
        }
        continue;
      }
      this.skips.delete(socket);
      // ws keeps its TCP socket as `_socket`; writing the ready frame there skips per-socket framing.
      // Server frames are never masked, so the bytes are the same for everyone (RFC 6455 §5.1).
      const raw = (socket as unknown as { _socket?: Socket })._socket;
      if (raw && !raw.destroyed && raw.writable) raw.write(frame);
      else socket.send(bytes, { binary: false });
    }
  }

  close(): void {
    this.unsubscribe();
    for (const socket of this.clients) socket.close(1001, 'server shutting down');
    this.clients.clear();
  }
}

/** One unmasked, final text frame (RFC 6455 §5.2) around a UTF-8 payload. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}
