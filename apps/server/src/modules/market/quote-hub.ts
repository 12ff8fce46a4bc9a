import type { Socket } from 'node:net';
import { type QuoteSubscription, quoteSubscription, type WireLiveQuote } from '@swx/contract';
import type { WebSocket } from 'ws';
import type { EventBus } from '../../platform/bus.ts';

/** Quotes published on this topic reach every /message client of every node. */
export const QUOTES_TOPIC = 'market.quotes';

/** A client whose socket holds more unsent bytes than this is skipped for a batch, never buffered without bound. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** A client skipped this many batches in a row is too slow to follow the feed and is dropped. */
const MAX_SKIPS_IN_A_ROW = 10;

/** What one client asked for: these codes and every instrument of these market types. */
type Selection = { key: string; codes: ReadonlySet<string>; types: ReadonlySet<number> };

/**
 * A client's /message text as a subscription: a selection, `null` for the whole list (`{}`), or
 * `undefined` when it is not one (ignored, as the spec's clients send nothing).
 */
export function readSubscription(text: string): Selection | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = quoteSubscription.safeParse(value);
  if (!parsed.success) return undefined;
  return selectionOf(parsed.data);
}

function selectionOf({ codes, types }: QuoteSubscription): Selection | null {
  if (codes === undefined && types === undefined) return null;
  const codeSet = new Set(codes ?? []);
  const typeSet = new Set(types ?? []);
  return {
    key: `${[...codeSet].sort().join(',')}|${[...typeSet].sort().join(',')}`,
    codes: codeSet,
    types: typeSet,
  };
}

/**
 * Fans quote batches out to the websocket clients of this node. A client that subscribed
 * (`readSubscription`) gets only its instruments; the others get the whole list. Each distinct
 * answer is serialized and framed once per batch and the same bytes written to every socket
 * that gets it.
 */
export class QuoteHub {
  private readonly clients = new Set<WebSocket>();
  private readonly skips = new WeakMap<WebSocket, number>();
  private readonly selections = new WeakMap<WebSocket, Selection>();
  private readonly unsubscribe: () => void;
  private readonly typeOf: (code: string) => number | undefined;
  skipped = 0;
  dropped = 0;
  batches = 0;

  /** `typeOf` tells an instrument's market type, for subscriptions by type. */
  constructor(bus: EventBus, typeOf: (code: string) => number | undefined) {
    this.typeOf = typeOf;
    this.unsubscribe = bus.subscribe(QUOTES_TOPIC, (batch) => this.broadcast(batch));
  }

  /** From now on the socket gets only what the selection names (`null`: the whole list again). */
  select(socket: WebSocket, selection: Selection | null): void {
    if (selection) this.selections.set(socket, selection);
    else this.selections.delete(socket);
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
    // Each distinct answer is serialized, encoded and framed once per batch: every socket that
    // gets it gets the same bytes in one write.
    const answers = new Map<string, { bytes: Buffer; frame: Buffer } | null>();
    const answerFor = (selection: Selection | undefined) => {
      const key = selection?.key ?? '*';
      let answer = answers.get(key);
      if (answer === undefined) {
        const quotes = selection ? this.pick(batch as WireLiveQuote[], selection) : batch;
        const bytes = Buffer.from(JSON.stringify(quotes));
        // Nothing of the batch is wanted: nothing is sent (no empty arrays).
        answer = quotes.length > 0 ? { bytes, frame: textFrame(bytes) } : null;
        answers.set(key, answer);
      }
      return answer;
    };
    for (const socket of this.clients) {
      if (socket.readyState !== socket.OPEN) continue;
      const answer = answerFor(this.selections.get(socket));
      if (!answer) continue;
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
      if (raw && !raw.destroyed && raw.writable) raw.write(answer.frame);
      else socket.send(answer.bytes, { binary: false });
    }
  }

  private pick(batch: readonly WireLiveQuote[], selection: Selection): WireLiveQuote[] {
    return batch.filter(
      (quote) =>
        selection.codes.has(quote.code) || selection.types.has(this.typeOf(quote.code) ?? Number.NaN),
    );
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
