/**
 * Reading the DSCR inputs a person types (the public calculator) into the
 * numbers dscr.ts takes: money as whole cents, read from the text exactly
 * (never by multiplying a float), rates and percentages as percents (7.25
 * means 7.25 %). A parser returns why a text is not a number in bounds,
 * never NaN or Infinity, and never throws; the screen words the message.
 */

export type NumberIssue = 'empty' | 'invalid' | 'negative' | 'too-many-decimals' | 'below-min' | 'above-max';

export type ParsedNumber = { ok: true; value: number } | { ok: false; issue: NumberIssue };

export interface NumberBounds {
  min: number;
  max: number;
  /** Digits allowed after the decimal point (0: whole numbers only). */
  maxDecimals: number;
}

/**
 * Bounds of each input, the same as the loan file's schema
 * (src/shared/schemas/loans.ts): money up to $100,000,000, a loan of at least
 * $1,000, a note rate above 0 and at most 30 %, whole years of amortization
 * up to 40, a short-term-rental expense factor up to 90 %, and a target ratio
 * between the lowest and highest band threshold a team may set.
 */
export const DSCR_INPUT_BOUNDS = {
  loanAmountCents: { min: 1_000_00, max: 100_000_000_00, maxDecimals: 2 },
  annualRatePercent: { min: 0.001, max: 30, maxDecimals: 3 },
  amortizationYears: { min: 1, max: 40, maxDecimals: 0 },
  moneyCents: { min: 0, max: 100_000_000_00, maxDecimals: 2 },
  expensePercent: { min: 0, max: 90, maxDecimals: 3 },
  targetDscr: { min: 0.5, max: 3, maxDecimals: 3 },
} as const satisfies Record<string, NumberBounds>;

/** Longer texts are not numbers anyone means (and would lose digits as doubles). */
const MAX_LENGTH = 24;

/** Digits with optional thousands separators ("300,000" or "300000"), then optional decimals. */
const DECIMAL = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/;

interface Decimal {
  /** The whole part's digits, without separators ("" for ".5"). */
  whole: string;
  /** The digits after the point ("" for none). */
  fraction: string;
}

/** Splits "1,234.50" into its digits; null when the text is not a plain non-negative decimal. */
function readDecimal(text: string): Decimal | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const whole = (match[1] ?? '').replaceAll(',', '');
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  return { whole, fraction };
}

/**
 * Reads `text` as a non-negative decimal within `bounds`. `scale` moves the
 * point (2 reads dollars as cents) before the bounds apply; the result is
 * exact when `scale` ≥ the decimals allowed, as for money.
 */
function parseScaled(text: string, bounds: NumberBounds, { prefix, suffix, scale }: { prefix?: string; suffix?: string; scale: number }): ParsedNumber {
  let rest = text.trim();
  if (rest === '') return { ok: false, issue: 'empty' };
  if (rest.length > MAX_LENGTH) return { ok: false, issue: 'invalid' };
  let negative = false;
  const strip = () => {
    // A minus sign before or after the currency sign: "-$5" and "$-5" are both negative.
    if (/^[-−]/.test(rest)) {
      negative = true;
      rest = rest.slice(1).trimStart();
    }
  };
  strip();
  if (prefix && rest.startsWith(prefix)) rest = rest.slice(prefix.length).trimStart();
  strip();
  if (suffix && rest.endsWith(suffix)) rest = rest.slice(0, -suffix.length).trimEnd();
  const decimal = readDecimal(rest);
  if (!decimal) return { ok: false, issue: 'invalid' };
  // The point moved `scale` digits right, from the digits themselves: "0.29" dollars is exactly 29 cents.
  const value = Number(`${decimal.whole || '0'}${decimal.fraction.padEnd(scale, '0').slice(0, scale)}.${decimal.fraction.slice(scale) || '0'}`);
  if (!Number.isFinite(value)) return { ok: false, issue: 'invalid' };
  if (negative && value !== 0) return { ok: false, issue: 'negative' };
  if (decimal.fraction.replace(/0+$/, '').length > bounds.maxDecimals) return { ok: false, issue: 'too-many-decimals' };
  if (value < bounds.min) return { ok: false, issue: 'below-min' };
  if (value > bounds.max) return { ok: false, issue: 'above-max' };
  return { ok: true, value };
}

/**
 * Money typed in dollars ("$300,000", "1250.5", "0") as whole cents, read
 * from the digits (so "0.29" is 29 cents, not 28.999…). Bounds are in cents.
 */
export function parseMoneyCents(text: string, bounds: NumberBounds = DSCR_INPUT_BOUNDS.moneyCents): ParsedNumber {
  return parseScaled(text, { ...bounds, maxDecimals: Math.min(bounds.maxDecimals, 2) }, { prefix: '$', scale: 2 });
}

/** A percent as typed ("7.25" or "7.25 %" is 7.25). */
export function parsePercent(text: string, bounds: NumberBounds): ParsedNumber {
  return parseScaled(text, bounds, { suffix: '%', scale: 0 });
}

/** A plain decimal ("1.25", "30"); `maxDecimals: 0` for whole numbers. */
export function parseDecimal(text: string, bounds: NumberBounds): ParsedNumber {
  return parseScaled(text, bounds, { scale: 0 });
}
