/** The mini chart: at most 100 points as one SVG polyline, no library (spec §9, DESIGN §3). */
export function Sparkline({ points, trend }: { points: readonly string[]; trend: 'up' | 'down' | 'flat' }) {
  const values = points.slice(-100).map(Number);
  if (values.length < 2) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const path = values
    .map(
      (v, i) =>
        `${((i / (values.length - 1)) * 100).toFixed(2)},${(28 - ((v - min) / span) * 26).toFixed(2)}`,
    )
    .join(' ');
  return (
    <svg
      className={`sparkline ${trend}`}
      viewBox="0 0 100 30"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <polyline
        points={path}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
