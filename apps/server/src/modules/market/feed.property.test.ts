import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './catalogue.data.ts';
import { change24h, formatPrice, type Instrument, isOpen, lastOpenTime, midAt, quoteAt } from './feed.ts';
import { decimalsFor } from './market.service.ts';
import { CURRENCIES, LATENT_MODEL, PEG_BAND, STABLECOINS, TRACKERS } from './structure.ts';

/** Every catalogue instrument as the market service lists it (reference and decimals from the catalogue). */
const BY_CODE = new Map<string, Instrument>(
  CATALOGUE.map((entry, index) => [
    entry.code,
    {
      id: index + 1,
      code: entry.code,
      class: entry.class,
      ref: Number(entry.ref),
      decimals: decimalsFor(entry.class, entry.ref),
    },
  ]),
);
function inst(code: string): Instrument {
  const found = BY_CODE.get(code);
  if (!found) throw new Error(`${code} is not in the catalogue`);
  return found;
}

/** Random instants over the past year and the next month, at any second. */
const FROM = Date.parse('2025-11-01T00:00:00Z') / 1000;
const TO = Date.parse('2027-01-01T00:00:00Z') / 1000;
const instant = fc.integer({ min: FROM, max: TO });
const RUNS = { numRuns: 10_000 };
/** Ten thousand instants take a few seconds on a busy machine; no timing is asserted. */
const SLOW = 120_000;

const PEGGED = ['USDCUSDT', 'FDUSDUSDT', 'DAIUSDT'];
const FOREX = CATALOGUE.filter((e) => e.class === 'forex').map((e) => e.code);
const CROSSES = FOREX.filter((code) => !code.includes('USD'));

/** The pair's price from the two dollar legs, as bid and ask a customer could trade through. */
function synthetic(code: string, t: number): { bid: number; ask: number; mid: number } {
  const leg = (ccy: string) => {
    // Value of one unit of ccy in USD, with the side that buys it (ask) and sells it (bid).
    const direct = BY_CODE.get(`${ccy}USD`);
    if (direct) {
      const q = quoteAt(direct, t);
      return { bid: q.bid, ask: q.ask, mid: q.mid };
    }
    const q = quoteAt(inst(`USD${ccy}`), t);
    return { bid: 1 / q.ask, ask: 1 / q.bid, mid: 1 / q.mid };
  };
  const base = leg(code.slice(0, 3));
  const quote = leg(code.slice(3));
  return { bid: base.bid / quote.ask, ask: base.ask / quote.bid, mid: base.mid / quote.mid };
}

describe('simulated feed keeps the structure of real markets (property, 10,000 random instants)', () => {
  it(
    'pegged stablecoins stay within 0.2 % of one dollar, bid and ask included',
    () => {
      fc.assert(
        fc.property(instant, (t) => {
          for (const code of PEGGED) {
            const q = quoteAt(inst(code), t);
            expect(Math.abs(q.mid - 1)).toBeLessThanOrEqual(PEG_BAND + 1e-12);
            expect(q.bid).toBeGreaterThan(0.998);
            expect(q.ask).toBeLessThan(1.002);
            expect(Number(formatPrice(inst(code), q.mid))).toBeGreaterThanOrEqual(0.998);
            expect(Number(formatPrice(inst(code), q.mid))).toBeLessThanOrEqual(1.002);
          }
        }),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'stablecoins revert to the peg: no day-long drift away from it',
    () => {
      // A day's average is a statistic of bounded noise, so it is judged as a distribution over a
      // thousand random days: typically a tenth of the band, and 99 days in 100 within half of it.
      // (A drifting peg, a walk, would put the typical day near the band's edge.) A single
      // day may rarely come closer to the edge; the band itself is the hard bound.
      for (const code of PEGGED) {
        const days = fc.sample(fc.integer({ min: FROM, max: TO }), 1000).map((t) => {
          let sum = 0;
          for (let h = 0; h < 24; h++) sum += midAt(inst(code), t + h * 3600) - 1;
          return Math.abs(sum / 24);
        });
        days.sort((a, b) => a - b);
        const mean = days.reduce((a, b) => a + b, 0) / days.length;
        expect(mean).toBeLessThan(PEG_BAND / 6);
        expect(days[Math.floor(days.length * 0.99)]).toBeLessThan(PEG_BAND / 2);
        expect(days.at(-1)).toBeLessThan(PEG_BAND);
      }
    },
    SLOW,
  );

  it(
    'wrapped and tokenised coins sit on their underlying within a tiny basis',
    () => {
      fc.assert(
        fc.property(instant, (t) => {
          const wbtc = midAt(inst('WBTCUSDT'), t) / midAt(inst('BTCUSDT'), t);
          expect(Math.abs(wbtc - 1)).toBeLessThanOrEqual(0.0005);
          if (isOpen('metals', t)) {
            const gold = midAt(inst('XAUUSD'), t);
            expect(Math.abs(midAt(inst('PAXGUSDT'), t) / gold - 1)).toBeLessThan(0.004);
            expect(Math.abs(midAt(inst('XAUTUSDT'), t) / gold - 1)).toBeLessThan(0.004);
          }
        }),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'funds on the same index move together at their fixed real-world ratio',
    () => {
      const spy0 = TRACKERS.SPY?.[1] as number;
      const ivv0 = TRACKERS.IVV?.[1] as number;
      const voo0 = TRACKERS.VOO?.[1] as number;
      fc.assert(
        fc.property(instant, (t) => {
          const spy = midAt(inst('SPY'), t);
          expect(midAt(inst('IVV'), t) / spy).toBeCloseTo(ivv0 / spy0, 9);
          expect(midAt(inst('VOO'), t) / spy).toBeCloseTo(voo0 / spy0, 9);
          // As shown: two-decimal prices keep the ratio to a cent's rounding.
          const shown = (code: string) => Number(formatPrice(inst(code), midAt(inst(code), t)));
          expect(Math.abs(shown('IVV') / shown('SPY') - ivv0 / spy0)).toBeLessThan(0.0001);
          expect(Math.abs(shown('VOO') / shown('SPY') - voo0 / spy0)).toBeLessThan(0.0001);
          expect(midAt(inst('GLD'), t) / midAt(inst('IAU'), t)).toBeCloseTo(0.092 / 0.01875, 9);
          // The index future and the fund agree whenever both trade (within the future's basis).
          if (isOpen('etf', t) && isOpen('futures', t)) {
            const implied = (midAt(inst('ESF'), t) / 1.003) * spy0;
            expect(Math.abs(spy / implied - 1)).toBeLessThan(0.0004);
            expect(
              Math.abs(midAt(inst('QQQ'), t) / ((midAt(inst('NQF'), t) / 1.004) * 0.0244) - 1),
            ).toBeLessThan(0.0004);
          }
        }),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'currency crosses equal the product of their legs: no triangular arbitrage beyond the spread',
    () => {
      fc.assert(
        fc.property(instant, (t) => {
          for (const code of CROSSES) {
            const cross = inst(code);
            const q = quoteAt(cross, t);
            const legs = synthetic(code, t);
            expect(q.mid / legs.mid).toBeCloseTo(1, 10);
            // Trading through the legs never beats the cross's own quote, nor the other way round.
            expect(q.bid).toBeLessThan(legs.ask);
            expect(q.ask).toBeGreaterThan(legs.bid);
            // The same holds for the prices as shown, at the pair's decimals.
            expect(Number(formatPrice(cross, q.bid))).toBeLessThanOrEqual(legs.ask);
            expect(Number(formatPrice(cross, q.ask))).toBeGreaterThanOrEqual(legs.bid);
          }
          // The Hong Kong dollar stays in its 7.75–7.85 band.
          const hkd = midAt(inst('USDHKD'), t);
          expect(hkd).toBeGreaterThan(7.75);
          expect(hkd).toBeLessThan(7.85);
        }),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'prices stay plausible for late 2026 at any instant',
    () => {
      const within = (code: string, low: number, high: number, t: number) => {
        const p = midAt(inst(code), t);
        expect(p, code).toBeGreaterThan(low);
        expect(p, code).toBeLessThan(high);
      };
      fc.assert(
        fc.property(instant, (t) => {
          within('EURUSD', 1.0, 1.3, t);
          within('USDJPY', 125, 180, t);
          within('GBPUSD', 1.15, 1.5, t);
          within('BTCUSDT', 30_000, 300_000, t);
          within('ETHUSDT', 1000, 12_000, t);
          within('XAUUSD', 2500, 6500, t);
          within('SPY', 450, 900, t);
        }),
        RUNS,
      );
    },
    SLOW,
  );

  it(
    'is a pure function of the instant: the same whatever was priced before',
    () => {
      const codes = ['BTCUSDT', 'WBTCUSDT', 'ETHUSDT', 'EURJPY', 'SPY', 'ESF', 'USDCUSDT', 'AAPL'];
      fc.assert(
        fc.property(instant, fc.array(instant, { minLength: 1, maxLength: 5 }), (t, others) => {
          const first = codes.map((code) => midAt(inst(code), t));
          for (const other of others) for (const code of [...codes].reverse()) midAt(inst(code), other);
          expect(codes.map((code) => midAt(inst(code), t))).toEqual(first);
        }),
        { numRuns: 2000 },
      );
    },
    SLOW,
  );
});

describe('simulated feed: the crypto market moves together', () => {
  /** Daily log returns over a year of consecutive days (crypto trades every day). */
  const START = Date.parse('2026-01-01T12:00:00Z') / 1000;
  const returns = (code: string) =>
    Array.from({ length: 300 }, (_, d) => {
      const t = START + d * 86_400;
      return Math.log(midAt(inst(code), t + 86_400) / midAt(inst(code), t));
    });
  const stats = (a: number[], b: number[]) => {
    const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
    const ma = mean(a);
    const mb = mean(b);
    let cov = 0;
    let va = 0;
    let vb = 0;
    for (let i = 0; i < a.length; i++) {
      cov += ((a[i] as number) - ma) * ((b[i] as number) - mb);
      va += ((a[i] as number) - ma) ** 2;
      vb += ((b[i] as number) - mb) ** 2;
    }
    return { correlation: cov / Math.sqrt(va * vb), beta: cov / vb, vol: Math.sqrt(va / a.length) };
  };

  it('coins share a market factor with realistic betas and correlations', () => {
    const btc = returns('BTCUSDT');
    const eth = stats(returns('ETHUSDT'), btc);
    expect(eth.correlation).toBeGreaterThan(0.7);
    expect(eth.beta).toBeGreaterThan(0.9);
    expect(eth.beta).toBeLessThan(1.6);
    for (const code of ['SOLUSDT', 'ADAUSDT', 'LINKUSDT', 'DOGEUSDT']) {
      const alt = stats(returns(code), btc);
      expect(alt.correlation, code).toBeGreaterThan(0.4);
      expect(alt.beta, code).toBeGreaterThan(0.9);
      expect(alt.vol, code).toBeGreaterThan(stats(btc, btc).vol);
    }
    // Bitcoin itself moves about 2–3 % a day.
    expect(stats(btc, btc).vol).toBeGreaterThan(0.012);
    expect(stats(btc, btc).vol).toBeLessThan(0.045);
    // A stablecoin does not follow the market.
    expect(Math.abs(stats(returns('USDCUSDT'), btc).beta)).toBeLessThan(0.01);
  });
});

describe('catalogue reference prices agree with the structure', () => {
  it('crosses equal their legs, trackers their ratio, stablecoins their peg, and levels are plausible', () => {
    const value = (ccy: string) => (CURRENCIES[ccy] as { value: number }).value;
    for (const code of FOREX) {
      expect(inst(code).ref / (value(code.slice(0, 3)) / value(code.slice(3))), code).toBeCloseTo(1, 4);
    }
    for (const [code, [of, ratio]] of Object.entries(TRACKERS)) {
      const underlying =
        LATENT_MODEL[of]?.[0] ?? BY_CODE.get(of)?.ref ?? value(of.slice(0, 3)) / value(of.slice(3));
      expect(inst(code).ref / (underlying * ratio), code).toBeCloseTo(1, 3);
    }
    for (const code of STABLECOINS) expect(inst(code).ref).toBe(1);
    expect(inst('EURUSD').ref).toBeGreaterThanOrEqual(1.08);
    expect(inst('EURUSD').ref).toBeLessThanOrEqual(1.17);
    expect(inst('USDJPY').ref).toBeGreaterThanOrEqual(145);
    expect(inst('USDJPY').ref).toBeLessThanOrEqual(155);
    expect(inst('BTCUSDT').ref).toBeGreaterThan(10_000);
    expect(inst('BTCUSDT').ref).toBeLessThan(1_000_000);
  });
});

describe('a closed market shows the change of its last day of trading', () => {
  it('a stock on Saturday: Friday’s close against Thursday’s', () => {
    const aapl = inst('AAPL');
    const saturday = Date.parse('2026-11-21T18:00:00Z') / 1000;
    const fridayClose = Date.parse('2026-11-20T21:00:00Z') / 1000 - 1;
    const thursdayClose = Date.parse('2026-11-19T21:00:00Z') / 1000 - 1;
    expect(lastOpenTime('stocks', saturday)).toBe(fridayClose);
    expect(change24h(aapl, saturday)).toBeCloseTo(
      midAt(aapl, fridayClose) / midAt(aapl, thursdayClose) - 1,
      12,
    );
    // The same on Sunday and on Monday before the open: the weekend never reads as "no change".
    const sunday = Date.parse('2026-11-22T18:00:00Z') / 1000;
    expect(change24h(aapl, sunday)).toBe(change24h(aapl, saturday));
    expect(change24h(aapl, saturday)).not.toBe(0);
  });
});
