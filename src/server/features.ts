import type { Feature } from './app-context';
import { activityFeature } from './activity/activity.routes';
import { adminFeature } from './admin/admin.routes';
import { auditFeature } from './audit/audit.routes';
import { authFeature } from './auth/auth.routes';
import { checklistFeature } from './checklist/checklist.routes';
import { commentsFeature } from './comments/comments.routes';
import { documentsFeature } from './documents/documents.routes';
import { uploadLinksFeature } from './documents/upload-links.routes';
import { healthFeature } from './health/health.routes';
import { loansFeature } from './loans/loans.routes';
import { participantsFeature } from './loans/participants.routes';
import { remindersFeature } from './reminders/reminders.routes';
import { invitationsFeature } from './invitations/invitations.routes';
import { lenderPackageFeature } from './lender-package/lender-package.routes';
import { meFeature } from './me/me.routes';
import { notificationsFeature } from './notifications/notifications.routes';
import { realtimeFeature } from './realtime/realtime.routes';
import { teamsFeature } from './teams/teams.routes';
import { testSupportFeature } from './test-support/test-support.routes';
import { waitlistFeature } from './waitlist/waitlist.routes';

/**
 * Every feature of the server, registered in this order by `buildApp`.
 * A new feature is its own folder (`src/server/<feature>/`) and one line here.
 */
export const features: Feature[] = [
  healthFeature,
  authFeature,
  meFeature,
  teamsFeature,
  auditFeature,
  loansFeature,
  activityFeature,
  checklistFeature,
  documentsFeature,
  uploadLinksFeature,
  lenderPackageFeature,
  commentsFeature,
  remindersFeature,
  participantsFeature,
  realtimeFeature,
  invitationsFeature,
  notificationsFeature,
  adminFeature,
  waitlistFeature,
  // Registers nothing unless the browser tests start the server with their secret (test-support/README.md).
  testSupportFeature,
];
