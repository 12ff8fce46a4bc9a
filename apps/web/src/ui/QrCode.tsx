import { useMemo } from 'react';
import { qrPath } from '../app/qr.ts';
import { withoutIsolates } from './bidi.tsx';

/**
 * A QR code of `text`, drawn here (nothing is sent anywhere): dark modules on white with a quiet
 * zone, whatever the page's colours, so a camera reads it in every theme. `className` sizes it.
 */
export function QrCode({
  text,
  label,
  className,
  testId,
}: {
  text: string;
  label: string;
  className: string;
  testId?: string;
}) {
  const { size, path } = useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className={className}
      role="img"
      aria-label={withoutIsolates(label)}
      data-testid={testId}
      data-text={text}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect className="qr-light" width={size} height={size} />
      <path className="qr-dark" d={path} />
    </svg>
  );
}
