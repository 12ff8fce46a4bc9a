import type { CloseReason } from '@swx/contract';
import { grown, TRIGGER_KINDS } from './trigger-index.ts';

/** Reason codes of a closing: the trigger kinds' codes, then auto-close, then a trailing stop. */
const REASONS: readonly CloseReason[] = [...TRIGGER_KINDS, 'expiry', 'trailing_stop'];

/**
 * The positions one tick closes, as parallel typed arrays of slot, reason and price in ticks (no
 * object per position on the hot path; prices are integers below 2^53, as the level keys are).
 */
export class TickClosings {
  slots = new Int32Array(256);
  reasons = new Uint8Array(256);
  prices = new Float64Array(256);
  length = 0;

  /** Makes room for `more` closings, so that a caller may write them straight into the arrays. */
  reserve(more: number): void {
    const need = this.length + more;
    this.slots = grown(this.slots, need, this.length);
    this.reasons = grown(this.reasons, need, this.length);
    this.prices = grown(this.prices, need, this.length);
  }

  add(slot: number, reason: number, price: number): void {
    this.reserve(1);
    this.slots[this.length] = slot;
    this.reasons[this.length] = reason;
    this.prices[this.length] = price;
    this.length += 1;
  }

  slot(i: number): number {
    return this.slots[i] as number;
  }

  reason(i: number): CloseReason {
    return REASONS[this.reasons[i] as number] as CloseReason;
  }

  closeTicks(i: number): bigint {
    return BigInt(this.prices[i] as number);
  }
}
