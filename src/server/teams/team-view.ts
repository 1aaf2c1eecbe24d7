import type { TeamRole } from '../../shared/domain/access';
import type { TeamView } from '../../shared/schemas/teams';
import type { TeamSummary } from '../accounts/accounts.queries';
import { logoPath } from './logo';

/** A team as one of its members sees it (the shell's header, /api/me, /api/teams/:teamId). */
export const teamView = (team: TeamSummary, role: TeamRole): TeamView => ({
  id: team.id,
  name: team.name,
  accentColor: team.accentColor,
  logoUrl: logoPath(team.id, team.logoSha256),
  role,
  dscrThresholds: { strong: team.dscrStrongCenti / 100, eligible: team.dscrEligibleCenti / 100 },
  timeZone: team.timeZone,
});
