import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decideAccess,
  decideLoanAccess,
  mustEnrolMfa,
  requiresMfa,
  type Principal,
  type RouteAccess,
  type SignedInPrincipal,
} from '../../shared/domain/access';
import type { Me } from '../../shared/schemas/me';
import { createPeople, PEOPLE_PASSWORD, type People } from '../../test/people';
import { setupApi } from '../../test/api';
import { backends, createTestDatabase } from '../../test/databases';
import { testAuth, testConfig } from '../../test/config';
import { LOAN_FILE_ACTIONS } from '../../shared/domain/loan-actions';
import { AccessRegistry, registerAccessLayer } from './access';

const user = (overrides: Partial<SignedInPrincipal> = {}): Principal => ({
  kind: 'user',
  userId: 'u',
  email: 'u@x.test',
  name: 'U',
  platformAdmin: false,
  broker: false,
  mfaEnrolled: false,
  team: null,
  ...overrides,
});

describe('decideAccess', () => {
  const anonymous: Principal = { kind: 'anonymous' };
  const member = user();
  const admin = user({ platformAdmin: true, mfaEnrolled: true });
  const newAdmin = user({ platformAdmin: true });
  const brokerNoMfa = user({ broker: true });
  const broker = user({ broker: true, mfaEnrolled: true });
  const ownerA = user({ broker: true, mfaEnrolled: true, team: { id: 'A', role: 'owner' } });
  const assistantA = user({ mfaEnrolled: true, team: { id: 'A', role: 'assistant' } });
  const newAssistantA = user({ team: { id: 'A', role: 'assistant' } });
  it.each([
    ['public', anonymous, {}, 'allow'],
    ['public', member, {}, 'allow'],
    ['signed-in', anonymous, {}, 'unauthenticated'],
    ['signed-in', member, {}, 'allow'],
    ['signed-in', newAdmin, {}, 'allow'],
    // Their own inbox carries loan data: signed in, and enrolled when they must be.
    ['me', anonymous, {}, 'unauthenticated'],
    ['me', member, {}, 'allow'],
    ['me', newAdmin, {}, 'mfa-required'],
    ['me', brokerNoMfa, {}, 'mfa-required'],
    ['me', newAssistantA, {}, 'mfa-required'],
    ['me', assistantA, {}, 'allow'],
    ['me', admin, {}, 'allow'],
    ['platform-admin', anonymous, {}, 'hidden'],
    ['platform-admin', member, {}, 'hidden'],
    ['platform-admin', assistantA, {}, 'hidden'],
    ['platform-admin', admin, {}, 'allow'],
    ['platform-admin', newAdmin, {}, 'mfa-required'],
    ['broker', anonymous, {}, 'unauthenticated'],
    ['broker', member, {}, 'hidden'],
    ['broker', admin, {}, 'hidden'],
    ['broker', newAdmin, {}, 'hidden'],
    ['broker', brokerNoMfa, {}, 'mfa-required'],
    ['broker', broker, {}, 'allow'],
    ['team-member', anonymous, { teamId: 'A' }, 'unauthenticated'],
    ['team-member', admin, { teamId: 'A' }, 'hidden'],
    ['team-member', newAdmin, { teamId: 'A' }, 'hidden'],
    ['team-member', ownerA, { teamId: 'A' }, 'allow'],
    ['team-member', ownerA, { teamId: 'B' }, 'hidden'],
    ['team-member', ownerA, {}, 'hidden'],
    ['team-member', assistantA, { teamId: 'A' }, 'allow'],
    ['team-member', newAssistantA, { teamId: 'A' }, 'mfa-required'],
    ['team-member', newAssistantA, { teamId: 'B' }, 'hidden'],
    ['team-owner', ownerA, { teamId: 'A' }, 'allow'],
    ['team-owner', assistantA, { teamId: 'A' }, 'hidden'],
    ['team-owner', newAssistantA, { teamId: 'A' }, 'hidden'],
    // A third party's link is the whole credential: without one, nobody finds anything there, the loan's owner included.
    ['upload-link', anonymous, {}, 'hidden'],
    ['upload-link', ownerA, {}, 'hidden'],
    ['upload-link', anonymous, { uploadLink: { linkId: 'l', loanId: 'a', itemId: 'i' } }, 'allow'],
    ['upload-link', ownerA, { uploadLink: { linkId: 'l', loanId: 'a', itemId: 'i' } }, 'allow'],
    ['upload-link', anonymous, { uploadLink: { linkId: 'l', loanId: 'a', itemId: 'i' }, hidden: true }, 'hidden'],
  ] as const)('%s × %o on %o → %s', (access, principal, target, decision) => {
    expect(decideAccess(access as RouteAccess, principal, target)).toBe(decision);
  });

  it('asks owners, assistants, brokers and platform admins to enrol an authenticator, and nobody else', () => {
    expect(mustEnrolMfa(newAssistantA as SignedInPrincipal)).toBe(true);
    expect(mustEnrolMfa(brokerNoMfa as SignedInPrincipal)).toBe(true);
    expect(mustEnrolMfa(newAdmin as SignedInPrincipal)).toBe(true);
    expect(mustEnrolMfa(assistantA as SignedInPrincipal)).toBe(false);
    expect(mustEnrolMfa(admin as SignedInPrincipal)).toBe(false);
    expect(mustEnrolMfa(member as SignedInPrincipal)).toBe(false);
  });

  it('keeps the authenticator of owners, assistants, brokers and platform admins on, enrolled or not, and nobody else’s', () => {
    for (const who of [newAssistantA, assistantA, ownerA, brokerNoMfa, broker, newAdmin, admin])
      expect(requiresMfa(who as SignedInPrincipal), JSON.stringify(who)).toBe(true);
    expect(requiresMfa(member as SignedInPrincipal)).toBe(false);
    expect(requiresMfa(user({ mfaEnrolled: true }) as SignedInPrincipal)).toBe(false);
  });
});

describe('decideLoanAccess', () => {
  it('lets the team do everything but an assistant delete, and borrowers see, comment and upload', () => {
    const owner = { kind: 'team', role: 'owner' } as const;
    const assistant = { kind: 'team', role: 'assistant' } as const;
    const borrower = { kind: 'participant', role: 'borrower' } as const;
    const coBorrower = { kind: 'participant', role: 'co_borrower' } as const;
    for (const [action, roles] of Object.entries(LOAN_FILE_ACTIONS)) {
      expect(decideLoanAccess(roles, owner, true), `owner ${action}`).toBe('allow');
      expect(decideLoanAccess(roles, owner, false), `owner ${action} without MFA`).toBe('mfa-required');
      expect(decideLoanAccess(roles, assistant, true), `assistant ${action}`).toBe(action === 'delete-loan' ? 'hidden' : 'allow');
      const borrowerMay = action === 'view';
      expect(decideLoanAccess(roles, borrower, false), `borrower ${action}`).toBe(borrowerMay ? 'allow' : 'hidden');
      expect(decideLoanAccess(roles, coBorrower, false), `co-borrower ${action}`).toBe(borrowerMay ? 'allow' : 'hidden');
      expect(decideLoanAccess(roles, { kind: 'none' }, true), `stranger ${action}`).toBe('hidden');
    }
  });

  it('hides an action no feature declares from everyone, the owner too', () => {
    expect(decideLoanAccess(undefined, { kind: 'team', role: 'owner' }, true)).toBe('hidden');
    expect(decideAccess('loan', user({ mfaEnrolled: true }), { loanRole: { kind: 'team', role: 'owner' } })).toBe('hidden');
  });
});

type Who = 'anonymous' | 'admin' | 'newAdmin' | 'ownerA' | 'assistantA' | 'newAssistantA' | 'ownerB' | 'borrower';

describe.each(backends)('role × endpoint matrix on %s', (backend) => {
  const api = setupApi(backend);
  // The cast comes through the real flows (invitations, enrolment), as the people it stands for do.
  let people: People;
  let pendingInvitation: string;

  beforeAll(async () => {
    people = await createPeople(api.app, api.db, api.config);
    const invited = await api.as(people.ownerA).post(`/api/teams/${people.teamA}/invitations`, { email: 'pending@people.test' });
    pendingInvitation = (invited.json() as { id: string }).id;
  }, 60_000);

  /** Who each caller is, written out by hand: the server must resolve each cookie to exactly this. */
  const principalOf = (who: Who): Principal => {
    if (who === 'anonymous') return { kind: 'anonymous' };
    const person = people[who];
    const base = { userId: person.userId, email: person.email, name: who };
    switch (who) {
      case 'admin':
        return user({ ...base, platformAdmin: true, mfaEnrolled: true });
      case 'newAdmin':
        return user({ ...base, platformAdmin: true });
      case 'ownerA':
        return user({ ...base, broker: true, mfaEnrolled: true, team: { id: people.teamA, role: 'owner' } });
      case 'assistantA':
        return user({ ...base, mfaEnrolled: true, team: { id: people.teamA, role: 'assistant' } });
      case 'newAssistantA':
        return user({ ...base, team: { id: people.teamA, role: 'assistant' } });
      case 'ownerB':
        return user({ ...base, broker: true, mfaEnrolled: true, team: { id: people.teamB, role: 'owner' } });
      case 'borrower':
        return user(base);
    }
  };
  const cookieOf = (who: Who) => (who === 'anonymous' ? '' : people[who].cookie);

  /**
   * A concrete URL for a route pattern, aimed at team A. The ids are real, and
   * the one destructive call an owner may make there (removing a member) names
   * the owner themself, which the last-owner rule refuses without a change.
   */
  const concrete = (url: string) =>
    url
      .replace(':teamId', people.teamA)
      .replace(':userId', people.ownerA.userId)
      .replace(':invitationId', pendingInvitation)
      .replace(':version', '0123456789abcdef')
      .replace(/:\w+/g, 'x')
      .replace(/\*$/, 'get-session');

  it('covers every API route the app has, each with a declared access', () => {
    const apiRoutes = api.app.routeAccessTable.filter((r) => r.url.startsWith('/api'));
    expect(apiRoutes.map((r) => `${r.method} ${r.url} ${r.access}`).sort()).toEqual(
      [
        'DELETE /api/teams/:teamId/invitations/:invitationId team-owner',
        'DELETE /api/teams/:teamId/logo team-owner',
        'DELETE /api/teams/:teamId/members/:userId team-owner',
        'GET /api/admin/audit platform-admin',
        'GET /api/admin/jobs platform-admin',
        'GET /api/admin/waitlist platform-admin',
        'GET /api/admin/waitlist.csv platform-admin',
        'GET /api/auth/* public',
        'GET /api/me signed-in',
        'GET /api/team-logos/:teamId/:version public',
        'GET /api/teams/:teamId team-member',
        'GET /api/teams/:teamId/audit team-owner',
        'GET /api/teams/:teamId/members team-member',
        'PATCH /api/me signed-in',
        'PATCH /api/teams/:teamId team-owner',
        'PATCH /api/teams/:teamId/members/:userId team-owner',
        'POST /api/admin/jobs/:id/retry platform-admin',
        'POST /api/admin/waitlist/:id/invite platform-admin',
        'POST /api/auth/* public',
        'POST /api/auth/change-password public',
        'POST /api/auth/request-password-reset public',
        'POST /api/auth/reset-password public',
        'POST /api/auth/sign-in/email public',
        'POST /api/auth/two-factor/disable public',
        'POST /api/auth/two-factor/generate-backup-codes public',
        'POST /api/auth/two-factor/verify-backup-code public',
        'POST /api/auth/two-factor/verify-totp public',
        'POST /api/invitations/accept public',
        'POST /api/invitations/lookup public',
        'POST /api/teams broker',
        'POST /api/teams/:teamId/invitations team-owner',
        'POST /api/waitlist public',
        'PUT /api/teams/:teamId/logo team-owner',
        'POST /api/teams/:teamId/loans team-member',
        'GET /api/teams/:teamId/loans team-member',
        'GET /api/teams/:teamId/loans.csv team-member',
        'GET /api/loans/:loanId loan',
        'PATCH /api/loans/:loanId loan',
        'DELETE /api/loans/:loanId loan',
        'POST /api/loans/:loanId/stage loan',
        'POST /api/loans/:loanId/archive loan',
        'POST /api/loans/:loanId/restore loan',
        'GET /api/loans/:loanId/activity loan',
        'GET /api/my-loans signed-in',
        'GET /api/events signed-in',
        'GET /api/loans/:loanId/participants loan',
        'POST /api/loans/:loanId/invitations loan',
        'DELETE /api/loans/:loanId/invitations/:invitationId loan',
        'DELETE /api/loans/:loanId/participants/:userId loan',
        'GET /api/loans/:loanId/checklist loan',
        'POST /api/loans/:loanId/checklist/items loan',
        'PATCH /api/loans/:loanId/checklist/items/:itemId loan',
        'DELETE /api/loans/:loanId/checklist/items/:itemId loan',
        'PUT /api/loans/:loanId/checklist/order loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/waive loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/reopen loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/not-applicable loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/not-applicable/confirm loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/not-applicable/reject loan',
        'GET /api/loans/:loanId/checklist/suggestions loan',
        'POST /api/loans/:loanId/checklist/from-template loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/uploads loan',
        'PUT /api/loans/:loanId/checklist/items/:itemId/uploads/:uploadId/files/:position loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/uploads/:uploadId/complete loan',
        'DELETE /api/loans/:loanId/checklist/items/:itemId/uploads/:uploadId loan',
        'GET /api/loans/:loanId/checklist/items/:itemId/versions loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/versions/:versionId/open loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/versions/:versionId/approve loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/versions/:versionId/needs-revision loan',
        'GET /api/loans/:loanId/checklist/items/:itemId/files/:fileId loan',
        'GET /api/loans/:loanId/checklist/items/:itemId/files/:fileId/preview loan',
        'POST /api/loans/:loanId/checklist/items/:itemId/upload-links loan',
        'GET /api/loans/:loanId/checklist/items/:itemId/upload-links loan',
        'DELETE /api/loans/:loanId/checklist/items/:itemId/upload-links/:linkId loan',
        'GET /api/upload-link upload-link',
        'POST /api/upload-link/uploads upload-link',
        'PUT /api/upload-link/uploads/:uploadId/files/:position upload-link',
        'POST /api/upload-link/uploads/:uploadId/complete upload-link',
        'DELETE /api/upload-link/uploads/:uploadId upload-link',
        'GET /api/loans/:loanId/package loan',
        'GET /api/loans/:loanId/comments loan',
        'POST /api/loans/:loanId/comments loan',
        'PATCH /api/loans/:loanId/comments/:commentId loan',
        'DELETE /api/loans/:loanId/comments/:commentId loan',
        'GET /api/loans/:loanId/comments/mention-candidates loan',
        'GET /api/loans/:loanId/read-cursor loan',
        'PUT /api/loans/:loanId/read-cursor loan',
        'GET /api/loans/:loanId/reminders loan',
        'PUT /api/loans/:loanId/reminders loan',
        'POST /api/loans/:loanId/reminders/send loan',
        'GET /api/teams/:teamId/checklist-template team-member',
        'PUT /api/teams/:teamId/checklist-template team-owner',
        'DELETE /api/teams/:teamId/checklist-template team-owner',
        'GET /api/me/notifications me',
        'GET /api/me/notifications/unread-count me',
        'POST /api/me/notifications/:notificationId/read me',
        'POST /api/me/notifications/read-all me',
        'GET /api/me/notification-preferences me',
        'PUT /api/me/notification-preferences me',
      ].sort(),
    );
  });

  it('resolves each caller to the principal the table is asked about', async () => {
    for (const who of ['admin', 'newAdmin', 'ownerA', 'assistantA', 'newAssistantA', 'ownerB', 'borrower'] as const) {
      const me = (await api.as(cookieOf(who)).get('/api/me')).json() as Me;
      const expected = principalOf(who) as SignedInPrincipal;
      expect(
        { platformAdmin: me.platformAdmin, broker: me.broker, mfaEnrolled: me.mfaEnrolled, team: me.team && { id: me.team.id, role: me.team.role } },
        who,
      ).toEqual({
        platformAdmin: expected.platformAdmin,
        broker: expected.broker,
        mfaEnrolled: expected.mfaEnrolled,
        team: expected.team,
      });
    }
  });

  it('answers each cell as the shared table decides', async () => {
    const hiddenBody = (await api.as().get('/api/__no_such_route__')).json();
    const whos: Who[] = ['anonymous', 'admin', 'newAdmin', 'ownerA', 'assistantA', 'newAssistantA', 'ownerB', 'borrower'];
    const routes = api.app.routeAccessTable.filter((r) => r.url.startsWith('/api'));
    const cells: string[] = [];
    for (const route of routes) {
      for (const who of whos) {
        const response = await api.app.inject({
          method: route.method as 'GET',
          // The stream with no loans is the inbox's, open until closed: a loan list it refuses answers at once.
          url: route.url === '/api/events' ? '/api/events?loans=not-a-loan' : concrete(route.url),
          headers: cookieOf(who) ? { cookie: cookieOf(who) } : {},
          ...(['POST', 'PATCH', 'PUT'].includes(route.method) ? { payload: {} } : {}),
        });
        const decision = decideAccess(
          route.access,
          principalOf(who),
          route.url.includes(':teamId') && !route.url.startsWith('/api/team-logos') ? { teamId: people.teamA } : {},
        );
        const cell = `${route.method} ${route.url} as ${who}`;
        cells.push(`${cell}: ${decision}`);
        // Said outright for the admin console: an admin before MFA is asked to enrol (401 mfa_required) on every one of its routes.
        if (who === 'newAdmin' && route.access === 'platform-admin') expect(decision, cell).toBe('mfa-required');
        if (decision === 'unauthenticated' || decision === 'mfa-required') {
          expect(response.statusCode, cell).toBe(401);
          expect(response.json().code, cell).toBe(decision === 'unauthenticated' ? 'unauthenticated' : 'mfa_required');
        } else if (decision === 'hidden') {
          // Exactly what a route that does not exist answers.
          expect(response.statusCode, cell).toBe(404);
          expect({ ...response.json(), instance: undefined, detail: undefined }, cell).toEqual({ ...hiddenBody, instance: undefined, detail: undefined });
        } else {
          expect(response.statusCode, cell).not.toBe(401);
          expect(response.statusCode, cell).toBeLessThan(500);
          if (response.statusCode === 404) expect(response.json().detail, cell).not.toMatch(/^No API route/);
        }
      }
    }
    expect(cells.length).toBe(routes.length * whos.length);
    // Every kind of answer occurs somewhere, so no branch above is dead.
    for (const decision of ['allow', 'unauthenticated', 'mfa-required', 'hidden'])
      expect(
        cells.some((c) => c.endsWith(decision)),
        decision,
      ).toBe(true);
  }, 60_000);

  it('lets an admin before MFA reach their profile and the enrolment endpoints, and nothing of the admin console', async () => {
    const { cookie } = people.newAdmin;
    const me = await api.as(cookie).get('/api/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ platformAdmin: true, mfaEnrolled: false, mustEnrolMfa: true });
    // Starting an enrolment is open to them (it enrols nothing until a code confirms it).
    const enable = await api.as(cookie).post('/api/auth/two-factor/enable', { password: PEOPLE_PASSWORD });
    expect(enable.statusCode, enable.body).toBe(200);
    expect((enable.json() as { totpURI: string }).totpURI).toMatch(/^otpauth:\/\/totp\//);
    for (const url of ['/api/admin/waitlist', '/api/admin/waitlist.csv', '/api/admin/audit', '/api/admin/jobs']) {
      const response = await api.as(cookie).get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ code: 'mfa_required' });
      expect(response.body, url).not.toContain('@people.test');
    }
  });
});

describe('the access layer at start-up', () => {
  it('refuses an API route that declares no access', async () => {
    const database = await createTestDatabase('pglite');
    const app = Fastify();
    const config = testConfig();
    registerAccessLayer(app, { auth: testAuth(database.db, config), db: database.db });
    expect(() => app.get('/api/forgotten', async () => ({}))).toThrow('Route GET /api/forgotten must declare config.access');
    await app.close();
    await database.destroy();
  });

  it('refuses a route whose credential no feature resolves, and answers one that names nothing as an unknown route', async () => {
    const database = await createTestDatabase('pglite');
    const app = Fastify();
    const config = testConfig();
    const registry = new AccessRegistry();
    registerAccessLayer(app, { auth: testAuth(database.db, config), db: database.db, registry });
    expect(() => app.get('/api/drop-box', { config: { access: 'upload-link' } }, async () => ({}))).toThrow('whose credential no feature resolves');
    registry.registerCredential('upload-link', (request) =>
      request.headers.authorization === 'Bearer good' ? { uploadLink: { linkId: 'l', loanId: 'a', itemId: 'i' } } : {},
    );
    expect(() => registry.registerCredential('upload-link', () => ({}))).toThrow('resolved twice');
    app.get('/api/drop-box', { config: { access: 'upload-link' } }, async (request) => request.accessTarget);
    expect((await app.inject({ url: '/api/drop-box', headers: { authorization: 'Bearer good' } })).json()).toEqual({
      uploadLink: { linkId: 'l', loanId: 'a', itemId: 'i' },
    });
    expect((await app.inject({ url: '/api/drop-box', headers: { authorization: 'Bearer bad' } })).statusCode).toBe(404);
    expect((await app.inject({ url: '/api/drop-box' })).statusCode).toBe(404);
    await app.close();
    await database.destroy();
  });

  it('takes loan actions from the features that declare them, and refuses a loan route whose action none declares', async () => {
    const database = await createTestDatabase('pglite');
    const app = Fastify();
    const config = testConfig();
    const registry = new AccessRegistry();
    registry.registerLoanActions({ 'read-notes': ['owner'] });
    expect(() => registry.registerLoanActions({ 'read-notes': ['assistant'] })).toThrow('The loan action read-notes is declared twice');
    registerAccessLayer(app, { auth: testAuth(database.db, config), db: database.db, registry });
    app.get('/api/loans/:loanId/notes', { config: { access: 'loan', loanAction: 'read-notes' } }, async () => ({}));
    expect(app.routeAccessTable).toContainEqual({
      method: 'GET',
      url: '/api/loans/:loanId/notes',
      access: 'loan',
      loanAction: 'read-notes',
      loanRoles: ['owner'],
    });
    expect(() => app.get('/api/loans/:loanId/secrets', { config: { access: 'loan', loanAction: 'read-secrets' } }, async () => ({}))).toThrow(
      'must name :loanId and declare config.loanAction, one a feature declares (read-notes)',
    );
    expect(() => app.get('/api/notes', { config: { access: 'loan', loanAction: 'read-notes' } }, async () => ({}))).toThrow('must name :loanId');
    await app.close();
    await database.destroy();
  });
});
