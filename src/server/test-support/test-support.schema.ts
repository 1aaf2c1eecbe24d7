import { z } from 'zod';

/** The header every test-support request carries the run's secret in. */
export const TEST_SUPPORT_SECRET_HEADER = 'x-test-support-secret';

/** Where the e2e run gives the server its secret; unset, the test-support routes do not exist. */
export const TEST_SUPPORT_SECRET_ENV = 'E2E_TEST_SUPPORT_SECRET';

export const TEST_PERSON_ROLES = [
  /** A platform admin. */
  'admin',
  /** A broker who founded a team and owns it. */
  'owner',
  /** An assistant of a team founded for them by a new owner. */
  'assistant',
] as const;

/** POST /api/test-support/people: a person with the grants of `role`, signed in. */
export const CreateTestPersonSchema = z.strictObject({
  role: z.enum(TEST_PERSON_ROLES),
  /** With an authenticator enrolled (and the session past it); without, the app sends them to set one up. */
  mfa: z.boolean().default(true),
  name: z.string().trim().min(1).max(80).optional(),
  /** Defaults to a new, unique address. */
  email: z.email().max(254).optional(),
  /** The owner's or the assistant's team; defaults to one named after its owner. */
  teamName: z.string().trim().min(1).max(80).optional(),
  /** An assistant joins this existing team (an owner's made before) instead of one founded for them. */
  teamId: z.uuid().optional(),
});
export type CreateTestPerson = z.input<typeof CreateTestPersonSchema>;

export interface TestPerson {
  userId: string;
  email: string;
  name: string;
  password: string;
  role: CreateTestPerson['role'];
  /** The owner's or the assistant's team. */
  team: { id: string; name: string; owner: { email: string; name: string } } | null;
  /** The authenticator, when enrolled: its base32 secret, its backup codes, and the 30-second step its sign-in used up. */
  totp: { secret: string; backupCodes: string[]; usedStep: number } | null;
  /** The Set-Cookie values of the session, for the test's browser (never set on this response). */
  cookies: string[];
}

/** POST /api/test-support/jobs/due: the queue whose pending jobs run now rather than when they were due. */
export const DueJobsSchema = z.strictObject({ queue: z.string().trim().min(1).max(100) });
