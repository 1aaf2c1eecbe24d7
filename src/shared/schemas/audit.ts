import { z } from 'zod';
import { AUDIT_ACTIONS, type AuditAction } from '../domain/audit-actions';

export { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, type AuditAction } from '../domain/audit-actions';

export const AuditEventSchema = z.object({
  id: z.number(),
  at: z.string(),
  action: z.string(),
  actorEmail: z.string().nullable(),
  subjectEmail: z.string().nullable(),
  teamId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

export const AUDIT_PAGE_SIZE = 50;

export const AuditQuerySchema = z.strictObject({
  before: z.coerce.number({ error: 'Use the number from nextBefore' }).int().positive().optional(),
  action: z.enum(AUDIT_ACTIONS as [AuditAction, ...AuditAction[]], { error: 'Unknown audit action' }).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;
