/**
 * The server's clock. Always the system's time, except in a sandbox started with
 * SWX_CLOCK=movable, whose clock an operator can move forward (`npm run clock:advance -- --by 1d`):
 * markets, trading, smart plans, settlement and jobs then live on the moved time, so a day of a
 * plan or a product can be watched in minutes. Production refuses a movable clock (config.ts).
 */
export type Clock = {
  readonly movable: boolean;
  /** Epoch milliseconds. */
  now: () => number;
  /** Moves a movable clock forward by `ms` (whole, positive); throws on the system clock. */
  advance: (ms: number) => void;
};

export const systemClock: Clock = {
  movable: false,
  now: () => Date.now(),
  advance: () => {
    throw new Error('the system clock cannot be moved');
  },
};

/** The system's time plus an offset that only grows: time never runs backwards. */
export function movableClock(): Clock {
  let offset = 0;
  return {
    movable: true,
    now: () => Date.now() + offset,
    advance: (ms) => {
      if (!Number.isSafeInteger(ms) || ms <= 0)
        throw new Error('a clock moves forward by a whole, positive number of ms');
      offset += ms;
    },
  };
}

const DAY_MS = 86_400_000;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };

/** `90s`, `30m`, `6h`, `2d` (at most 400 days) in milliseconds; null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,5})([smhd])$/.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * (UNITS[match[2] as string] as number);
  return ms <= 400 * DAY_MS ? ms : null;
}
