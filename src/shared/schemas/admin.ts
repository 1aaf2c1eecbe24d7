import { z } from 'zod';
import { text } from './text';

export const WAITLIST_SORTS = ['createdAt', 'fullName', 'email', 'company', 'status'] as const;
export type WaitlistSort = (typeof WAITLIST_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const WaitlistStatusSchema = z.enum(['new', 'invited'], { error: 'Use new or invited' });
export type WaitlistStatus = z.infer<typeof WaitlistStatusSchema>;

/** The list never sends more rows than this; the CSV export has no cap. */
export const WAITLIST_LIST_LIMIT = 1000;

/**
 * The admin's view of the waitlist: a search across name, e-mail, company and
 * phone, a sort, and a status filter. Used by the list and the CSV export, so
 * the export holds exactly what the table shows (without the row cap).
 */
export const ListWaitlistQuerySchema = z.object({
  q: text('Search')
    .trim()
    .max(200, { error: 'Search must be at most 200 characters' })
    .optional()
    .transform((value) => (value ? value : undefined)),
  sort: z.enum(WAITLIST_SORTS, { error: `Sort by ${WAITLIST_SORTS.join(', ')}` }).default('createdAt'),
  dir: z.enum(SORT_DIRECTIONS, { error: 'Use asc or desc' }).default('desc'),
  status: WaitlistStatusSchema.optional(),
});
export type ListWaitlistQueryInput = z.input<typeof ListWaitlistQuerySchema>;
export type ListWaitlistQuery = z.output<typeof ListWaitlistQuerySchema>;

export const AdminWaitlistEntrySchema = z.object({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  status: WaitlistStatusSchema,
  /** How many times the address signed up (repeats are merged into one entry). */
  submissions: z.number(),
  createdAt: z.string(),
  invitedAt: z.string().nullable(),
});
export type AdminWaitlistEntry = z.infer<typeof AdminWaitlistEntrySchema>;

export const ListWaitlistResultSchema = z.object({
  entries: z.array(AdminWaitlistEntrySchema),
  /** Every entry that matches, even beyond the row cap. */
  total: z.number(),
  /** More entries match than were sent (see WAITLIST_LIST_LIMIT). */
  truncated: z.boolean(),
});
export type ListWaitlistResult = z.infer<typeof ListWaitlistResultSchema>;

export const WaitlistEntryParamsSchema = z.object({ id: z.uuid({ error: 'Not a valid waitlist entry id' }) });

export const InviteBrokerResultSchema = z.object({
  /** The entry, now invited. */
  entry: AdminWaitlistEntrySchema,
  invitation: z.object({ email: z.string(), expiresAt: z.string() }),
});
export type InviteBrokerResult = z.infer<typeof InviteBrokerResultSchema>;

export const JOB_LIST_STATUSES = ['dead', 'pending'] as const;
/** Background jobs shown to admins: failed for good (`dead`, the default) or waiting for their next try. */
export const ListJobsQuerySchema = z.object({
  status: z.enum(JOB_LIST_STATUSES, { error: 'Use dead or pending' }).default('dead'),
});
export type ListJobsQuery = z.output<typeof ListJobsQuerySchema>;

/** The admin list shows the newest this many jobs. */
export const JOB_LIST_LIMIT = 200;

export const FailedJobSchema = z.object({
  id: z.number(),
  queue: z.string(),
  status: z.enum(JOB_LIST_STATUSES),
  /** For e-mail jobs: the addressee and subject; null for other queues. */
  recipient: z.string().nullable(),
  subject: z.string().nullable(),
  attempts: z.number(),
  maxAttempts: z.number(),
  lastError: z.string().nullable(),
  updatedAt: z.string(),
});
export type FailedJob = z.infer<typeof FailedJobSchema>;

export const ListJobsResultSchema = z.object({ jobs: z.array(FailedJobSchema) });
export type ListJobsResult = z.infer<typeof ListJobsResultSchema>;

/** Job ids are bigserial numbers; digits only, so "1e3" or "0x10" are not ids. */
export const JobParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, { error: 'Not a valid job id' })
    .transform(Number),
});

export const RetryJobResultSchema = z.object({ id: z.number(), status: z.literal('pending') });
export type RetryJobResult = z.infer<typeof RetryJobResultSchema>;
