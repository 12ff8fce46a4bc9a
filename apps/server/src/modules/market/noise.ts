/**
 * Deterministic noise for the simulated feed: functions of (seed, time) only, so every node
 * computes the same path and any past moment can be priced again.
 */

const OCTAVES = 13; // 4^0 s … 4^12 s ≈ 194 days
const PERIODS = Array.from({ length: OCTAVES }, (_, k) => 4 ** k);
const WEIGHTS = PERIODS.map((p) => Math.sqrt(p));
/** Octaves of the short, mean-reverting noise: 1 s to 4^6 s (about 68 minutes). */
const SHORT_OCTAVES = 7;

/** A 32-bit hash of three integers (integer mixing in the style of murmur3's finaliser). */
function hash3(seed: number, k: number, i: number): number {
  let h =
    (seed ^
      Math.imul(k + 1, 0x9e3779b1) ^
      Math.imul(i | 0, 0x85ebca6b) ^
      Math.imul(Math.floor(i / 4_294_967_296), 0xc2b2ae35)) >>>
    0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit seed from a name (FNV-1a). */
export function seedOf(code: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) h = Math.imul(h ^ code.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Σ_k √P_k · noise_k(t) over the first `octaves` periods P_k = 4^k s, t in seconds (fractional
 * allowed): value noise weighted as Brownian motion would be, so moves grow with the square root of
 * the horizon, and bounded, so a price never drifts to zero.
 */
function fractal(seed: number, t: number, octaves: number): number {
  let sum = 0;
  for (let k = 0; k < octaves; k++) {
    const period = PERIODS[k] as number;
    const x = t / period;
    const i = Math.floor(x);
    const f = x - i;
    const a = hash3(seed, k, i) / 2_147_483_648 - 1;
    const b = hash3(seed, k, i + 1) / 2_147_483_648 - 1;
    const s = f * f * (3 - 2 * f);
    sum += (WEIGHTS[k] as number) * (a + (b - a) * s);
  }
  return sum;
}

/** Measures a noise's spread once, over many seeds and instants. */
function measure(sample: (seed: number, t: number) => number): number {
  let sum = 0;
  let n = 0;
  for (let s = 1; s <= 40; s++) {
    for (let i = 0; i < 60; i++) {
      const v = sample(Math.imul(s, 2_654_435_761) >>> 0, 1_700_000_000 + i * 86_400 + s * 7919);
      sum += v * v;
      n += 1;
    }
  }
  return Math.sqrt(sum / n);
}

/** The standard deviation of the full noise's one-day change. */
const UNIT_DAILY = measure((seed, t) => fractal(seed, t + 86_400, OCTAVES) - fractal(seed, t, OCTAVES));
/** The standard deviation of the short noise's level. */
const UNIT_SHORT = measure((seed, t) => fractal(seed, t, SHORT_OCTAVES));

/** A random walk in log-price units whose one-day change has a standard deviation of 1. */
export function walk(seed: number, t: number): number {
  return fractal(seed, t, OCTAVES) / UNIT_DAILY;
}

/**
 * Mean-reverting noise in (−1, 1): no component slower than a few hours, so it never wanders off;
 * squashed so its bound is a hard one (a peg's band, a basis).
 */
export function band(seed: number, t: number): number {
  return Math.tanh((0.6 * fractal(seed, t, SHORT_OCTAVES)) / UNIT_SHORT);
}

/** A shared series (a market factor, an index, a currency) remembered for the last few instants. */
export class Series {
  private readonly cache = new Map<number, number>();
  private readonly compute: (t: number) => number;
  constructor(compute: (t: number) => number) {
    this.compute = compute;
  }
  at(t: number): number {
    const hit = this.cache.get(t);
    if (hit !== undefined) return hit;
    const value = this.compute(t);
    if (this.cache.size >= 64) this.cache.clear();
    this.cache.set(t, value);
    return value;
  }
}
