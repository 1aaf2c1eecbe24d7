import { z } from 'zod';

/**
 * A loan id as a URL may spell it (any letter case), parsed to its canonical
 * lower-case form: handlers, queries and the limits keyed on it see one
 * spelling per loan.
 */
export const LoanId = z.uuid({ error: 'Not a loan id' }).transform((id) => id.toLowerCase());
