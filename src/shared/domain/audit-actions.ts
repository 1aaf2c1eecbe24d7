// Free of zod, so the web app's audit page can read the labels without
// pulling schema code into the chunk the public forms share.

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
  'checklist_template.saved': 'Saved the checklist template',
  'checklist_template.reset': 'Reset the checklist template to the built-in one',
  'loan.created': 'Created a loan file',
  'loan.deleted': 'Deleted a loan file',
  'participant.invited': 'Invited a borrower to a loan',
  'participant.removed': 'Removed a borrower from a loan',
  'document.viewed': 'Viewed a document',
  'document.downloaded': 'Downloaded a document',
  'document.approved': 'Approved a document',
  'document.needs_revision': 'Sent a document back for revision',
  'upload_link.sent': 'Sent a third party an upload link',
  'upload_link.revoked': 'Withdrew an upload link',
  'package.downloaded': 'Downloaded the lender package',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];
