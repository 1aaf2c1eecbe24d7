import { encode } from 'uqr';

/**
 * A QR code drawn as SVG rectangles by React: no canvas, no data: URL and no
 * injected markup, so the page's strict CSP holds.
 */
export function QrCode({ value, label, className = '' }: { value: string; label: string; className?: string }) {
  const { data, size } = encode(value, { ecc: 'M', border: 2 });
  const cells: string[] = [];
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) cells.push(`M${x} ${y}h1v1h-1z`);
    }),
  );
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" className={className}>
      <rect width={size} height={size} fill="#fff" />
      <path d={cells.join('')} fill="#0f172a" />
    </svg>
  );
}
