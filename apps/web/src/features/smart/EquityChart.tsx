import { ColorType, createChart, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef } from 'react';

/**
 * The backtest's equity curve, one point per UTC day, with lightweight-charts (the chart library of
 * the market pages; loaded only on a product page, never with the home page). A drawing of the
 * figures listed beside it: the label says what it shows in words.
 */
export default function EquityChart({
  points,
  label,
}: {
  points: readonly { t: string; equity: string }[];
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const token = (name: string) =>
      getComputedStyle(box.current as HTMLElement)
        .getPropertyValue(name)
        .trim();
    const grid = token('--chart-grid');
    const chart = createChart(box.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: token('--chart-bg') },
        textColor: token('--chart-text'),
        attributionLogo: false,
      },
      grid: { vertLines: { color: grid }, horzLines: { color: grid } },
      timeScale: { timeVisible: false },
      handleScroll: false,
      handleScale: false,
    });
    const series = chart.addSeries(LineSeries, { color: token('--brand'), lineWidth: 2 });
    // Drawing only: the equity's shape; every figure shown or sent stays a decimal string.
    const seen = new Set<number>();
    const data: { time: UTCTimestamp; value: number }[] = [];
    for (const p of points) {
      const time = Math.floor(Date.parse(p.t) / 1000);
      if (seen.has(time)) continue;
      seen.add(time);
      data.push({ time: time as UTCTimestamp, value: Number(p.equity) });
    }
    data.sort((a, b) => a.time - b.time);
    series.setData(data);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points]);
  return <div ref={box} className="smart-chart" role="img" aria-label={label} data-points={points.length} />;
}
