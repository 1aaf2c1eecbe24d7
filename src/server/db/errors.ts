/**
 * PostgreSQL's SQLSTATE of a database error, looked for along the `cause`
 * chain (drizzle and better-auth wrap the driver's error), or null.
 */
export function sqlState(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** A unique constraint refused the row (SQLSTATE 23505): somebody else made it first. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/**
 * Class 22, "data exception": a value the database cannot take (NUL in text, an invalid encoding, out of range),
 * or a CHECK constraint refusing it (23514): validation should have caught it first; this is the backstop.
 */
export const isDataException = (error: unknown) => {
  const state = sqlState(error);
  return (state?.startsWith('22') ?? false) || state === '23514';
};
