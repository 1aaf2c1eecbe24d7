import { describe, expect, it } from 'vitest';
import type { Me } from '../../../shared/schemas/me';
import { paths } from '../../lib/paths';
import { appRoutes } from '../app-routes';
import { headerLinks } from './navigation';

const team: NonNullable<Me['team']> = {
  id: 'team-1',
  name: 'Harbor Lending',
  accentColor: '#1d4ed8',
  logoUrl: null,
  role: 'assistant',
  dscrThresholds: { strong: 1.25, eligible: 1 },
  timeZone: 'America/New_York',
};
const person = (change: Partial<Me>): Me => ({
  user: { id: 'user-1', name: 'Pat', email: 'pat@example.test' },
  platformAdmin: false,
  broker: false,
  mfaEnrolled: true,
  mustEnrolMfa: false,
  team: null,
  workPhone: null,
  participantLoans: 0,
  sessionExpiresAt: '2026-11-23T12:00:00.000Z',
  ...change,
});
const links = (me: Me, pathname: string) => headerLinks(appRoutes, me, pathname);

describe("the header's links (every feature's routes)", () => {
  it('gives a borrower "My loans", current on their loans and nothing of a team', () => {
    const borrower = person({ participantLoans: 1 });
    expect(links(borrower, paths.myLoans)).toEqual([{ label: 'My loans', to: paths.myLoans, active: true }]);
    expect(links(borrower, paths.loanHref('loan-1'))).toEqual([{ label: 'My loans', to: paths.myLoans, active: false }]);
  });

  it('gives a team member who also borrows on a loan "My loans" beside the pipeline', () => {
    const labels = links(person({ team, participantLoans: 2 }), paths.loans).map((link) => [link.label, link.active]);
    expect(labels).toEqual([
      ['Pipeline', true],
      ['My loans', false],
      ['Team', false],
    ]);
  });

  it('keeps "My loans" from team members and admins who follow no loan as a borrower', () => {
    expect(links(person({ team }), paths.loans).map((link) => link.label)).toEqual(['Pipeline', 'Team']);
    expect(links(person({ platformAdmin: true }), paths.app).map((link) => link.label)).toEqual(['Admin']);
  });
});
