/**
 * Money and ratios as the calculator shows them. Money is formatted from its
 * whole cents by hand, with the output of Intl.NumberFormat('en-US', USD)
 * (format.test.ts holds the two equal): creating the first Intl number
 * formatter costs 30–60 ms of main thread in Chromium, four times that on
 * Lighthouse's simulated phone, and it would run while the page hydrates.
 * Integer arithmetic also keeps every cent exact, with no float division.
 */

/** 1234567 → "1,234,567". */
export function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Whole cents as US dollars: "$2,046.53", or "$397,258" with `fractionDigits` 0 (rounded half up). */
export function formatCents(cents: number, fractionDigits: 0 | 2 = 2): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  if (fractionDigits === 0) return `${sign}$${groupThousands(Math.floor((abs + 50) / 100))}`;
  return `${sign}$${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}

/** A ratio to 3 decimals ("1.133"), as dscr.ts rounds it. */
export function formatRatio(ratio: number): string {
  return ratio.toFixed(3);
}
