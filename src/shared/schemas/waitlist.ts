import { z } from 'zod';
import { text } from './text';

/** Trims, and turns an empty optional text into `undefined`. */
const optionalText = (max: number, label: string) =>
  text(label)
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` })
    .optional()
    .transform((value) => (value ? value : undefined));

/** Digits with the usual separators, an optional leading +, and an optional extension. */
const PHONE_PATTERN = /^\+?[0-9 ().-]*[0-9][0-9 ().-]*(?:\s*(?:x|ext\.?)\s*[0-9]{1,6})?$/i;

/**
 * The waitlist sign-up, as the form sends it and the route accepts it.
 * `website` is a honeypot: hidden from people, filled in by bots.
 */
export const JoinWaitlistSchema = z.strictObject({
  fullName: text('Full name').trim().min(1, { error: 'Full name is required' }).max(120, { error: 'Full name must be at most 120 characters' }),
  email: text('Email')
    .trim()
    .min(1, { error: 'Email is required' })
    .max(254, { error: 'Email must be at most 254 characters' })
    .pipe(z.email({ error: 'Enter a valid email address' })),
  phone: optionalText(32, 'Phone number').refine((v) => v === undefined || PHONE_PATTERN.test(v), {
    error: 'Enter a phone number using digits, spaces and + ( ) - .',
  }),
  company: optionalText(120, 'Company'),
  website: text('Website').max(500).optional(),
});

export type JoinWaitlistInput = z.input<typeof JoinWaitlistSchema>;
export type JoinWaitlist = z.output<typeof JoinWaitlistSchema>;

/** What the API answers to every accepted sign-up: the same for new, repeated and bot entries. */
export const JoinWaitlistResultSchema = z.object({ status: z.literal('received') });
export type JoinWaitlistResult = z.infer<typeof JoinWaitlistResultSchema>;
