import { z } from 'zod';

/** Everything the audit log records, with how the log reads it. */
export const AUDIT_ACTION_LABELS = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'mfa.enrolled': 'Set up two-step verification',
  'mfa.backup_codes_regenerated': 'Made new backup codes',
  'mfa.disabled': 'Turned off two-step verification',
  'password.reset': 'Reset their password',
  'password.changed': 'Changed their password',
  'invitation.sent': 'Sent an invitation',
  'invitation.accepted': 'Accepted an invitation',
  'invitation.revoked': 'Withdrew an invitation',
  'team.created': 'Created the team',
  'team.branding_updated': 'Changed the branding',
  'member.role_changed': 'Changed a role',
  'member.removed': 'Removed a member',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

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
