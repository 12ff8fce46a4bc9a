import { CATALOGUE } from './catalogue.data.ts';
import { band, Series, seedOf, walk } from './noise.ts';

/**
 * The structure of the simulated markets, so prices relate as real ones do:
 *
 * - shared factors (the crypto market, US equities, gold, oil, interest rates, the dollar) are
 *   random walks every instrument loads on with a beta, plus its own (idiosyncratic) walk;
 * - pegged stablecoins stay within a fraction of a percent of their peg, mean-reverting;
 * - wrapped and bridged tokens, funds on one index, futures and their underlying track it at a
 *   fixed ratio (a real-world one), within a tiny basis where there is one;
 * - currencies each have one value in dollars, and every pair is the ratio of its two values, so
 *   crosses equal the product of their legs (no triangular arbitrage).
 *
 * Every price is a pure function of (code, instant): shared series are only remembered, never
 * stateful. Levels come from the catalogue's reference prices, which are made consistent with
 * these relations (a test checks).
 */

/** Daily volatility (standard deviation of the one-day log change) of each shared factor. */
const FACTORS = {
  crypto: 0.022,
  equity: 0.0095,
  gold: 0.011,
  oil: 0.02,
  rates: 0.006,
  dollar: 0.004,
} as const;
type Factor = keyof typeof FACTORS;

const factorSeries = Object.fromEntries(
  Object.entries(FACTORS).map(([name, vol]) => {
    const seed = seedOf(`factor:${name}`);
    return [name, new Series((t) => vol * walk(seed, t))];
  }),
) as Record<Factor, Series>;

type Loadings = Partial<Record<Factor, number>>;

/** log level = log(ref) + Σ beta·factor + idio·own walk. */
function factorModel(name: string, ref: number, loadings: Loadings, idio: number): (t: number) => number {
  const terms = Object.entries(loadings).map(([f, beta]) => [factorSeries[f as Factor], beta] as const);
  const seed = seedOf(`own:${name}`);
  const logRef = Math.log(ref);
  return (t) => {
    let x = logRef;
    for (const [series, beta] of terms) x += beta * series.at(t);
    if (idio > 0) x += idio * walk(seed, t);
    return Math.exp(x);
  };
}

/** Underlying levels that are not instruments themselves (stock indices, commodities): reference, loadings, own volatility. */
export const LATENT_MODEL: Record<string, [number, Loadings, number]> = {
  SPX: [6690, { equity: 1 }, 0],
  NDX: [24_700, { equity: 1.15 }, 0.005],
  DJI: [46_400, { equity: 0.9 }, 0.004],
  RUT: [2445, { equity: 1.2 }, 0.007],
  XAU: [4000, { gold: 1 }, 0],
  XAG: [48.5, { gold: 1.2 }, 0.014],
  XPT: [1550, { gold: 0.6 }, 0.014],
  XPD: [1400, { gold: 0.5 }, 0.02],
  WTI: [62, { oil: 1 }, 0],
  NG: [3.25, {}, 0.035],
};
const LATENT: Record<string, Series> = Object.fromEntries(
  Object.entries(LATENT_MODEL).map(([name, [ref, loadings, idio]]) => [
    name,
    new Series(factorModel(name, ref, loadings, idio)),
  ]),
);

/**
 * Currencies: value in US dollars at the reference, loading on the dollar factor (negative: a
 * strong dollar lowers the others), own daily volatility; a `peg` keeps a value in a band around
 * its reference (the Hong Kong dollar's 7.75–7.85 band).
 */
type CurrencyModel = { value: number; dollar: number; idio: number; peg?: number };
export const CURRENCIES: Record<string, CurrencyModel> = {
  USD: { value: 1, dollar: 0, idio: 0 },
  EUR: { value: 1.165, dollar: 1, idio: 0.002 },
  GBP: { value: 1.335, dollar: 0.8, idio: 0.003 },
  JPY: { value: 1 / 150.5, dollar: 0.8, idio: 0.004 },
  CHF: { value: 1 / 0.8, dollar: 1, idio: 0.0025 },
  AUD: { value: 0.655, dollar: 0.9, idio: 0.004 },
  CAD: { value: 1 / 1.39, dollar: 0.5, idio: 0.0025 },
  NZD: { value: 0.58, dollar: 0.9, idio: 0.004 },
  SGD: { value: 1 / 1.295, dollar: 0.5, idio: 0.0015 },
  HKD: { value: 1 / 7.8, dollar: 0, idio: 0, peg: 0.0045 },
  CNH: { value: 1 / 7.12, dollar: 0.3, idio: 0.0015 },
  MXN: { value: 1 / 18.4, dollar: 0.6, idio: 0.008 },
  ZAR: { value: 1 / 17.3, dollar: 0.6, idio: 0.009 },
  TRY: { value: 1 / 41.9, dollar: 0.1, idio: 0.004 },
  SEK: { value: 1 / 9.4, dollar: 1.1, idio: 0.004 },
  NOK: { value: 1 / 10, dollar: 1, idio: 0.005 },
  PLN: { value: 1 / 3.65, dollar: 1.05, idio: 0.003 },
};

const currencySeries = Object.fromEntries(
  Object.entries(CURRENCIES).map(([code, m]) => {
    const seed = seedOf(`ccy:${code}`);
    const dollar = factorSeries.dollar;
    const compute =
      m.peg !== undefined
        ? (t: number) => m.value * (1 + (m.peg as number) * band(seed, t))
        : code === 'USD'
          ? () => 1
          : (t: number) => m.value * Math.exp(-m.dollar * dollar.at(t) + m.idio * walk(seed, t));
    return [code, new Series(compute)];
  }),
) as Record<string, Series>;

/** A currency pair's mid: the value of its base over the value of its quote currency. */
function pairOf(code: string): [Series, Series] | null {
  if (code.length !== 6) return null;
  const base = currencySeries[code.slice(0, 3)];
  const quote = currencySeries[code.slice(3)];
  return base && quote ? [base, quote] : null;
}

/** Crypto: beta on the crypto market factor and own daily volatility (the default 1.4 and 3 %). */
const CRYPTO_BETA: Record<string, [number, number]> = {
  BTCUSDT: [1, 0.008],
  ETHUSDT: [1.2, 0.012],
  BNBUSDT: [0.7, 0.012],
  SOLUSDT: [1.4, 0.02],
  XRPUSDT: [1.3, 0.025],
  TRXUSDT: [0.6, 0.012],
  LEOUSDT: [0.2, 0.008],
  BCHUSDT: [1.1, 0.02],
  LTCUSDT: [1.1, 0.02],
  ETCUSDT: [1.1, 0.02],
  BSVUSDT: [1.1, 0.025],
  XMRUSDT: [0.9, 0.025],
  ZECUSDT: [0.9, 0.03],
  // Exchange tokens move less than the market.
  OKBUSDT: [0.6, 0.012],
  GTUSDT: [0.6, 0.012],
  KCSUSDT: [0.6, 0.012],
  BGBUSDT: [0.6, 0.015],
  CROUSDT: [0.8, 0.02],
  MXUSDT: [0.6, 0.015],
};
/** Meme coins: a high beta and a large idiosyncratic move. */
const MEMES = new Set(
  'DOGE SHIB PEPE BONK WIF FLOKI DOGS NEIRO TURBO BOME MEW POPCAT MOODENG PNUT GOAT TRUMP PENGU FARTCOIN SPX MOG BRETT MEME ELON BABYDOGE CAT WEN MYRO SLERF GIGA PONKE CHILLGUY HMSTR CATI NOT MUBARAK'
    .split(' ')
    .map((c) => `${c}USDT`),
);

/** Stablecoins pegged to one US dollar (USDT, the quote currency, is one by definition). */
export const STABLECOINS = new Set(['USDCUSDT', 'FDUSDUSDT', 'DAIUSDT']);
/** How far a stablecoin may stray from its peg, as a fraction (±0.12 %). */
export const PEG_BAND = 0.0012;

/** Stocks and ETFs not tracking an index: loadings and own daily volatility (default β 1, 1.4 %). */
const EQUITY_MODEL: Record<string, [Loadings, number]> = {
  NVDA: [{ equity: 1.6 }, 0.022],
  TSLA: [{ equity: 1.8 }, 0.03],
  AMD: [{ equity: 1.6 }, 0.022],
  AVGO: [{ equity: 1.4 }, 0.018],
  MU: [{ equity: 1.5 }, 0.022],
  PLTR: [{ equity: 1.7 }, 0.03],
  AAPL: [{ equity: 1.1 }, 0.01],
  MSFT: [{ equity: 1.05 }, 0.009],
  AMZN: [{ equity: 1.2 }, 0.012],
  GOOGL: [{ equity: 1.1 }, 0.012],
  META: [{ equity: 1.25 }, 0.015],
  BRKB: [{ equity: 0.8 }, 0.007],
  KO: [{ equity: 0.5 }, 0.007],
  PEP: [{ equity: 0.5 }, 0.007],
  PG: [{ equity: 0.45 }, 0.007],
  JNJ: [{ equity: 0.5 }, 0.008],
  WMT: [{ equity: 0.55 }, 0.009],
  SO: [{ equity: 0.4 }, 0.008],
  DUK: [{ equity: 0.4 }, 0.008],
  NEE: [{ equity: 0.5 }, 0.012],
  XOM: [{ equity: 0.6, oil: 0.35 }, 0.01],
  CVX: [{ equity: 0.6, oil: 0.35 }, 0.01],
  COP: [{ equity: 0.7, oil: 0.45 }, 0.012],
  OXY: [{ equity: 0.7, oil: 0.5 }, 0.014],
  EOG: [{ equity: 0.7, oil: 0.45 }, 0.012],
  SLB: [{ equity: 0.8, oil: 0.4 }, 0.014],
  NEM: [{ equity: 0.4, gold: 1.4 }, 0.014],
  FCX: [{ equity: 1.2 }, 0.02],
  COIN: [{ equity: 1.3, crypto: 0.7 }, 0.022],
  MSTR: [{ equity: 1.2, crypto: 1.1 }, 0.02],
  HOOD: [{ equity: 1.6, crypto: 0.4 }, 0.028],
  // ETFs that hold many stocks but no single index listed here.
  VTI: [{ equity: 1.02 }, 0.0012],
  VUG: [{ equity: 1.15 }, 0.004],
  VTV: [{ equity: 0.85 }, 0.004],
  SCHD: [{ equity: 0.75 }, 0.005],
  XLK: [{ equity: 1.25 }, 0.006],
  XLF: [{ equity: 1.05 }, 0.007],
  XLE: [{ equity: 0.6, oil: 0.4 }, 0.008],
  XLV: [{ equity: 0.65 }, 0.006],
  XLY: [{ equity: 1.15 }, 0.007],
  XLP: [{ equity: 0.5 }, 0.005],
  XLI: [{ equity: 1 }, 0.006],
  XLU: [{ equity: 0.45 }, 0.008],
  XLB: [{ equity: 0.95 }, 0.007],
  XLRE: [{ equity: 0.8 }, 0.009],
  XLC: [{ equity: 1.1 }, 0.007],
  SMH: [{ equity: 1.5 }, 0.012],
  SOXX: [{ equity: 1.5 }, 0.012],
  ARKK: [{ equity: 1.6 }, 0.016],
  VNQ: [{ equity: 0.85 }, 0.009],
  VEA: [{ equity: 0.75, dollar: -0.5 }, 0.005],
  EFA: [{ equity: 0.75, dollar: -0.5 }, 0.005],
  VWO: [{ equity: 0.7, dollar: -0.5 }, 0.008],
  EEM: [{ equity: 0.7, dollar: -0.5 }, 0.008],
  KWEB: [{ equity: 0.8 }, 0.02],
  FXI: [{ equity: 0.6 }, 0.014],
  EWJ: [{ equity: 0.6, dollar: -0.4 }, 0.008],
  GDX: [{ equity: 0.5, gold: 1.6 }, 0.012],
  AGG: [{ rates: 0.35 }, 0.0008],
  BND: [{ rates: 0.35 }, 0.0008],
  TLT: [{ rates: 1 }, 0.002],
  IEF: [{ rates: 0.45 }, 0.001],
  SHY: [{ rates: 0.07 }, 0.0003],
  LQD: [{ rates: 0.55, equity: 0.05 }, 0.002],
  HYG: [{ rates: 0.2, equity: 0.25 }, 0.002],
  // Futures on things not otherwise listed.
  HOF: [{ oil: 0.9 }, 0.012],
  RBF: [{ oil: 0.9 }, 0.014],
  HGF: [{ equity: 0.3 }, 0.014],
  ZCF: [{}, 0.013],
  ZWF: [{}, 0.018],
  ZSF: [{}, 0.011],
  ZBF: [{ rates: 0.9 }, 0.001],
  ZNF: [{ rates: 0.45 }, 0.0008],
};

/**
 * Instruments that track another at a fixed ratio: [underlying, ratio, basis]. The underlying is a
 * latent level, an instrument code, or a currency pair; basis is the largest mean-reverting
 * deviation from the ratio (0: exactly the ratio, as for funds priced at their holdings).
 */
export const TRACKERS: Record<string, [string, number, number]> = {
  // Wrapped and tokenised: on the underlying within a tiny basis.
  WBTCUSDT: ['BTCUSDT', 1, 0.0004],
  PAXGUSDT: ['XAU', 1.002, 0.001],
  XAUTUSDT: ['XAU', 1.001, 0.001],
  // Funds on one index at their real-world ratios to it.
  SPY: ['SPX', 0.09972, 0],
  IVV: ['SPX', 0.1003, 0],
  VOO: ['SPX', 0.0917, 0],
  QQQ: ['NDX', 0.0244, 0],
  DIA: ['DJI', 0.01001, 0],
  IWM: ['RUT', 0.0998, 0],
  GLD: ['XAU', 0.092, 0],
  IAU: ['XAU', 0.01875, 0],
  SLV: ['XAG', 0.9072, 0],
  USO: ['WTI', 1.161, 0],
  UNG: ['NG', 4, 0],
  IBIT: ['BTCUSDT', 0.000564, 0],
  ETHA: ['ETHUSDT', 0.0075, 0],
  // A company's second share class.
  GOOG: ['GOOGL', 1.004, 0.0005],
  // Spot metals and futures on their underlying (futures at a small carry premium).
  XAUUSD: ['XAU', 1, 0],
  XAGUSD: ['XAG', 1, 0],
  XPTUSD: ['XPT', 1, 0],
  XPDUSD: ['XPD', 1, 0],
  ESF: ['SPX', 1.003, 0.0003],
  NQF: ['NDX', 1.004, 0.0003],
  YMF: ['DJI', 1.003, 0.0003],
  RTYF: ['RUT', 1.003, 0.0004],
  CLF: ['WTI', 1, 0],
  BZF: ['WTI', 1.056, 0.004],
  NGF: ['NG', 1, 0],
  GCF: ['XAU', 1.005, 0.0005],
  SIF: ['XAG', 1.006, 0.0006],
  PLF: ['XPT', 1.006, 0.0006],
  '6EF': ['EURUSD', 1.0025, 0.0002],
  '6BF': ['GBPUSD', 1.0008, 0.0002],
  '6JF': ['JPYUSD', 1.003, 0.0002],
};

/** Leveraged funds: [index, daily leverage, reference]; log moves are the leverage times the index's. */
export const LEVERAGED: Record<string, [string, number, number]> = {
  TQQQ: ['NDX', 3, 105],
  SQQQ: ['NDX', -3, 15],
};

const catalogueRef = new Map(CATALOGUE.map((e) => [e.code, Number(e.ref)]));
const catalogueClass = new Map(CATALOGUE.map((e) => [e.code, e.class]));

/** The price function of a code, or null when the code is not part of the modelled markets. */
function build(code: string): ((t: number) => number) | null {
  const pair = pairOf(code);
  if (pair) {
    const [base, quote] = pair;
    return (t) => base.at(t) / quote.at(t);
  }
  const tracked = TRACKERS[code];
  if (tracked) {
    const [of, ratio, basis] = tracked;
    const underlying = seriesOf(of);
    if (!underlying) return null;
    if (basis === 0) return (t) => ratio * underlying.at(t);
    const seed = seedOf(`basis:${code}`);
    return (t) => ratio * underlying.at(t) * (1 + basis * band(seed, t));
  }
  const leveraged = LEVERAGED[code];
  if (leveraged) {
    const [of, leverage, ref] = leveraged;
    const index = LATENT[of] as Series;
    const indexRef = (LATENT_MODEL[of] as [number, Loadings, number])[0];
    return (t) => ref * (index.at(t) / indexRef) ** leverage;
  }
  const ref = catalogueRef.get(code);
  const cls = catalogueClass.get(code);
  if (ref === undefined || cls === undefined) return null;
  if (STABLECOINS.has(code)) {
    const seed = seedOf(`peg:${code}`);
    return (t) => 1 + PEG_BAND * band(seed, t);
  }
  if (cls === 'crypto') {
    const [beta, idio] = CRYPTO_BETA[code] ?? (MEMES.has(code) ? [1.8, 0.04] : [1.4, 0.03]);
    return factorModel(code, ref, { crypto: beta }, idio);
  }
  const equity = EQUITY_MODEL[code];
  if (equity) return factorModel(code, ref, equity[0], equity[1]);
  if (cls === 'stocks' || cls === 'etf') return factorModel(code, ref, { equity: 1 }, 0.014);
  return null;
}

const built = new Map<string, ((t: number) => number) | null>();
/** Series of instruments other instruments track (remembered, since both are priced each tick). */
const underlyingSeries = new Map<string, Series | null>();

function seriesOf(name: string): Series | null {
  const latent = LATENT[name];
  if (latent) return latent;
  const pair = pairOf(name);
  if (pair) {
    const [base, quote] = pair;
    return new Series((t) => base.at(t) / quote.at(t));
  }
  let series = underlyingSeries.get(name);
  if (series === undefined) {
    const fn = priceFunction(name);
    series = fn ? new Series(fn) : null;
    underlyingSeries.set(name, series);
  }
  return series;
}

/** The modelled mid price of a code at an instant (seconds), or null for a code not modelled. */
export function priceFunction(code: string): ((t: number) => number) | null {
  let fn = built.get(code);
  if (fn === undefined) {
    fn = build(code);
    built.set(code, fn);
  }
  return fn;
}
