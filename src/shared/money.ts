/**
 * Money (and the other numbers people type) has one home: this module reads
 * what a person types into whole cents — percents and plain decimals by the
 * same rule — and writes cents for people. The public calculator, the loan
 * form, the loan pages, the pipeline, the API's messages and the CSV export
 * all use it (docs/decisions/009-web-server-state-and-forms.md, "Numbers").
 *
 * No Intl here: creating the first Intl number formatter costs 30–60 ms of
 * main thread in Chromium, four times that on Lighthouse's simulated phone,
 * and the calculator formats while it hydrates. Money is written from its
 * whole cents by hand, with the output of Intl.NumberFormat('en-US', USD)
 * (money.test.ts holds the two equal), and integer arithmetic keeps every
 * cent exact.
 */

// ---------------------------------------------------------------------------
// Reading what people type

export type NumberIssue = 'empty' | 'invalid' | 'negative' | 'too-many-decimals' | 'below-min' | 'above-max';

/** A reader's answer: the number, or why the text is not one in bounds; never NaN or Infinity, never a throw. */
export type ParsedNumber = { ok: true; value: number } | { ok: false; issue: NumberIssue };

export interface NumberBounds {
  min: number;
  max: number;
  /** Digits allowed after the decimal point (0: whole numbers only). */
  maxDecimals: number;
}

/** Any amount of money a safe integer of cents holds, to the cent: for a form whose schema checks the bounds itself. */
export const ANY_MONEY: NumberBounds = { min: 0, max: Number.MAX_SAFE_INTEGER, maxDecimals: 2 };

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
 * Money typed in dollars as whole cents, read from the digits (so "0.29" is
 * 29 cents, not 28.999…). The rule: spaces around the text and after an
 * optional "$" are ignored; the digits are plain ("300000") or grouped by
 * commas in threes ("300,000"), with at most 2 decimals (".5" and "12." read
 * too). Refused: a minus sign (negative), spaces or other separators inside
 * the digits ("1 000", "3,00,000", "1,2345"), exponents, letters, more than
 * 24 characters. Bounds are in cents; blank is `empty`, for the caller to
 * allow or not.
 */
export function parseMoneyCents(text: string, bounds: NumberBounds = ANY_MONEY): ParsedNumber {
  return parseScaled(text, { ...bounds, maxDecimals: Math.min(bounds.maxDecimals, 2) }, { prefix: '$', scale: 2 });
}

/** A percent as typed, by the same rule ("7.25" or "7.25 %" is 7.25). */
export function parsePercent(text: string, bounds: NumberBounds): ParsedNumber {
  return parseScaled(text, bounds, { suffix: '%', scale: 0 });
}

/** A plain decimal ("1.25", "30"), by the same rule; `maxDecimals: 0` for whole numbers. */
export function parseDecimal(text: string, bounds: NumberBounds): ParsedNumber {
  return parseScaled(text, bounds, { scale: 0 });
}

// ---------------------------------------------------------------------------
// Writing cents for people

/** 1234567 → "1,234,567". */
export function groupThousands(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Whole cents as US dollars to the cent: 204653 → "$2,046.53". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}$${groupThousands(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}

/** Whole cents as whole US dollars, rounded half up: 26606050 → "$266,061" (headers, cards, the pipeline, bounds). */
export function formatWholeDollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${groupThousands(Math.floor((Math.abs(Math.round(cents)) + 50) / 100))}`;
}

/**
 * Cents as dollars to type again (a form's value, a link): 30000050 →
 * "300,000.50", 30000000 → "300,000" (cents only when there are some), or
 * without `grouping` "300000.50". parseMoneyCents reads it back exactly.
 */
export function formatMoneyInput(cents: number, { grouping = true }: { grouping?: boolean } = {}): string {
  const abs = Math.abs(Math.round(cents));
  const dollars = Math.floor(abs / 100);
  const rest = abs % 100;
  const whole = `${cents < 0 ? '-' : ''}${grouping ? groupThousands(dollars) : String(dollars)}`;
  return rest === 0 ? whole : `${whole}.${String(rest).padStart(2, '0')}`;
}

/** Cents as a plain decimal number of dollars for machines (CSV): 30000050 → "300000.50". */
export function formatDollarsDecimal(cents: number): string {
  const abs = Math.abs(Math.round(cents));
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A percent to at most 3 decimals, with its sign: 7.25 → "7.25 %". */
export function formatPercent(percent: number): string {
  return `${Number(percent.toFixed(3))} %`;
}

/** A ratio to 3 decimals ("1.133", "1.250"), as dscr.ts rounds it. */
export function formatRatio(ratio: number): string {
  return ratio.toFixed(3);
}
