import { AUTO_CLOSE_CHOICES, STOP_OUT_PERCENT, type TradingTerms } from '@swx/contract';
import { CLASS_RULES, type MarketClass } from './feed.ts';

/**
 * The terms every position of an instrument is made of, stated to the customer before trading:
 * lot size, lot limits, leverage choices, fee and spread.
 *
 * Leverage is capped at the retail limits European regulators (ESMA) use: 30 for major currency
 * pairs, 20 for other pairs, gold and major indices, 10 for other commodities and other indices,
 * 5 for shares, ETFs and other references (bonds), 2 for crypto. Operators can lower or raise a
 * cap with the LEVERAGE_CAPS setting (see config), never above 1000.
 */
export type InstrumentTerms = {
  lotSize: bigint;
  minCentilots: bigint;
  maxCentilots: bigint;
  maxLeverage: number;
  leverages: number[];
  /** Fee in millionths of the notional, charged once at open. */
  feePpm: bigint;
  quoteCurrency: string;
};

/** Fee per class in millionths of the notional: all below the advertised 0.3 %. */
const FEE_PPM: Record<MarketClass, bigint> = {
  forex: 100n, // 0.01 %
  metals: 200n, // 0.02 %
  futures: 200n,
  stocks: 500n, // 0.05 %
  etf: 500n,
  crypto: 1000n, // 0.1 %
};

const MAX_LOTS: Record<MarketClass, bigint> = {
  forex: 50n,
  metals: 50n,
  futures: 50n,
  stocks: 1000n,
  etf: 1000n,
  crypto: 100n,
};

const MAJOR_CURRENCIES = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
const MAJOR_INDEX_FUTURES = new Set(['ESF', 'NQF', 'YMF']);
const CURRENCY_FUTURES: Record<string, string> = { '6EF': 'EUR', '6JF': 'JPY', '6BF': 'GBP' };
const BOND_FUTURES = new Set(['ZBF', 'ZNF']);

/** Contract sizes of the futures listed (units of the price per contract). */
const FUTURES_LOT: Record<string, bigint> = {
  ESF: 50n,
  NQF: 20n,
  YMF: 5n,
  RTYF: 50n,
  CLF: 1000n,
  BZF: 1000n,
  NGF: 10_000n,
  HOF: 42_000n,
  RBF: 42_000n,
  GCF: 100n,
  SIF: 5000n,
  HGF: 25_000n,
  PLF: 50n,
  ZCF: 5000n,
  ZWF: 5000n,
  ZSF: 5000n,
  ZBF: 1000n,
  ZNF: 1000n,
  '6EF': 125_000n,
  '6JF': 12_500_000n,
  '6BF': 62_500n,
};

const METAL_LOT: Record<string, bigint> = { XAUUSD: 100n, XAGUSD: 5000n, XPTUSD: 50n, XPDUSD: 100n };

const LEVERAGE_STEPS = [1, 2, 5, 10, 20, 30, 50, 100, 200, 500, 1000];

export function defaultLeverageCap(code: string, cls: MarketClass): number {
  switch (cls) {
    case 'forex': {
      const major = MAJOR_CURRENCIES.has(code.slice(0, 3)) && MAJOR_CURRENCIES.has(code.slice(3, 6));
      return major ? 30 : 20;
    }
    case 'metals':
      return code === 'XAUUSD' ? 20 : 10;
    case 'futures': {
      if (MAJOR_INDEX_FUTURES.has(code) || code === 'GCF') return 20;
      const currency = CURRENCY_FUTURES[code];
      if (currency) return MAJOR_CURRENCIES.has(currency) ? 30 : 20;
      if (BOND_FUTURES.has(code)) return 5;
      return 10;
    }
    case 'stocks':
    case 'etf':
      return 5;
    case 'crypto':
      return 2;
  }
}

/** The currency a price is quoted in: the last three letters of a pair, USDT for crypto, else USD. */
export function quoteCurrencyOf(code: string, cls: MarketClass): string {
  if (cls === 'forex') return code.slice(3, 6);
  if (cls === 'crypto') return 'USDT';
  return 'USD';
}

/**
 * Units in one lot: 100,000 for currency pairs, the contract size for futures and metals, one
 * share for stocks and ETFs, and for crypto the power of ten of coins that makes a lot worth at
 * least 100 USDT at the reference price (1 BTC; 10,000,000 SHIB).
 */
export function lotSizeOf(code: string, cls: MarketClass, ref: number): bigint {
  switch (cls) {
    case 'forex':
      return 100_000n;
    case 'metals':
      return METAL_LOT[code] ?? 100n;
    case 'futures':
      return FUTURES_LOT[code] ?? 1n;
    case 'stocks':
    case 'etf':
      return 1n;
    case 'crypto': {
      const exponent = ref >= 100 ? 0 : Math.ceil(Math.log10(100 / ref) - 1e-9);
      return 10n ** BigInt(Math.max(0, exponent));
    }
  }
}

export function termsOf(
  code: string,
  cls: MarketClass,
  ref: number,
  caps: Readonly<Record<string, number>> = {},
): InstrumentTerms {
  const maxLeverage = Math.min(1000, Math.max(1, caps[code] ?? caps[cls] ?? defaultLeverageCap(code, cls)));
  const leverages = LEVERAGE_STEPS.filter((l) => l < maxLeverage);
  leverages.push(maxLeverage);
  return {
    lotSize: lotSizeOf(code, cls, ref),
    minCentilots: 1n,
    maxCentilots: MAX_LOTS[cls] * 100n,
    maxLeverage,
    leverages,
    feePpm: FEE_PPM[cls],
    quoteCurrency: quoteCurrencyOf(code, cls),
  };
}

function ratio(ppm: bigint): string {
  const whole = ppm / 1_000_000n;
  const fraction = (ppm % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

export function termsView(
  instrument: { id: number; code: string; class: MarketClass; decimals: number },
  terms: InstrumentTerms,
  open: boolean,
): TradingTerms {
  const lots = (c: bigint) => `${c / 100n}.${(c % 100n).toString().padStart(2, '0')}`;
  return {
    id: instrument.id,
    code: instrument.code,
    lotSize: terms.lotSize.toString(),
    minLots: lots(terms.minCentilots),
    maxLots: lots(terms.maxCentilots),
    lotStep: '0.01',
    leverages: terms.leverages,
    maxLeverage: terms.maxLeverage,
    feeRate: ratio(terms.feePpm),
    spreadRate: CLASS_RULES[instrument.class].spread.toString(),
    quoteCurrency: terms.quoteCurrency,
    priceDecimals: instrument.decimals,
    stopOutPercent: Number(STOP_OUT_PERCENT),
    autoCloseChoices: [...AUTO_CLOSE_CHOICES],
    open,
  };
}
