import {
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { type RefObject, useEffect, useRef } from 'react';

export type CandleData = { time: number; open: string; high: string; low: string; close: string };

type Bar = { time: number; open: number; high: number; low: number; close: number };

/** The chart in `box`, made once with its colours read from the design tokens (it draws on a canvas). */
function useChart(box: RefObject<HTMLDivElement | null>) {
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const token = (name: string) =>
      getComputedStyle(box.current as HTMLElement)
        .getPropertyValue(name)
        .trim();
    const [up, down, grid] = [token('--up'), token('--down'), token('--chart-grid')];
    const created = createChart(box.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: token('--chart-bg') },
        textColor: token('--chart-text'),
        attributionLogo: false,
      },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      timeScale: { timeVisible: true, secondsVisible: false },
    });
    series.current = created.addSeries(CandlestickSeries, {
      upColor: up,
      downColor: down,
      borderUpColor: up,
      borderDownColor: down,
      wickUpColor: up,
      wickDownColor: down,
    });
    chart.current = created;
    return () => {
      created.remove();
      chart.current = null;
      series.current = null;
    };
  }, [box]);
  return { chart, series };
}

/** Each pushed price updates the last candle's close and extremes, or opens the next candle. */
function useLiveCandle(
  series: RefObject<ISeriesApi<'Candlestick'> | null>,
  last: RefObject<Bar | null>,
  livePrice: string | undefined,
  periodSeconds: number,
) {
  useEffect(() => {
    if (!livePrice || !series.current || !last.current) return;
    const p = Number(livePrice);
    const now = Math.floor(Date.now() / 1000);
    const bucket = Math.floor(now / periodSeconds) * periodSeconds;
    const current = last.current;
    if (periodSeconds < 604_800 && bucket > current.time) {
      last.current = {
        time: bucket,
        open: current.close,
        high: Math.max(current.close, p),
        low: Math.min(current.close, p),
        close: p,
      };
    } else {
      last.current = { ...current, high: Math.max(current.high, p), low: Math.min(current.low, p), close: p };
    }
    series.current.update({ ...last.current, time: last.current.time as UTCTimestamp });
  }, [series, last, livePrice, periodSeconds]);
}

/**
 * Candles with lightweight-charts (loaded only on the instrument page). The last candle follows
 * the live price: each pushed price updates its close and extremes, or opens the next candle.
 */
export default function CandleChart({
  candles,
  periodSeconds,
  livePrice,
  label,
}: {
  candles: readonly CandleData[];
  periodSeconds: number;
  livePrice: string | undefined;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { chart, series } = useChart(box);
  const last = useRef<Bar | null>(null);

  useEffect(() => {
    const data = candles.map((c) => ({
      time: c.time as UTCTimestamp,
      open: Number(c.open),
      high: Number(c.high),
      low: Number(c.low),
      close: Number(c.close),
    }));
    series.current?.setData(data);
    last.current = data.at(-1) ? { ...(data.at(-1) as (typeof data)[number]) } : null;
    chart.current?.timeScale().fitContent();
  }, [candles, chart, series]);

  useLiveCandle(series, last, livePrice, periodSeconds);

  return (
    <div ref={box} className="candle-chart" role="img" aria-label={label} data-candles={candles.length} />
  );
}
