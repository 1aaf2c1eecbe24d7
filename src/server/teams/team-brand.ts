import type { Db } from '../db/client';
import type { MailBrand } from '../platform/mail/mail-jobs';
import { logoPath } from './logo';
import { findTeamOfUser, type TeamSummary } from '../accounts/accounts.queries';

/** How the team's e-mails are headed: its name, accent colour and logo. */
export function teamMailBrand(team: TeamSummary, publicUrl: string): MailBrand {
  const path = logoPath(team.id, team.logoSha256);
  return { name: team.name, accentColor: team.accentColor, logoUrl: path ? `${publicUrl}${path}` : null };
}

/** The brand of the team a person works in, for the e-mails they receive; null outside a team. */
export async function mailBrandOfUser(deps: { db: Db; publicUrl: string }, userId: string): Promise<MailBrand | null> {
  const found = await findTeamOfUser(deps.db, userId);
  return found ? teamMailBrand(found, deps.publicUrl) : null;
}
