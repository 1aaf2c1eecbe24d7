import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { decideAccess, EVERYONE_ON_LOAN, type LoanRole, type Principal } from '../../shared/domain/access';
import type { UploadView, VersionView } from '../../shared/schemas/documents';
import type { LoanView } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { uploadVersion } from '../../test/documents';
import { addBorrower, createLoan, type Person } from '../../test/factories';
import { openStream, type TestStream } from '../../test/event-stream';
import { createPeople, type People } from '../../test/people';
import { samplePng } from '../../test/sample-files';
import { uploadLinkTokenFor } from '../../test/upload-links';
import { checklistItem, loanParticipant, uploadLink } from '../db/schema';

/**
 * The loan half of the role × endpoint matrix: every loan route the app has
 * (read from its own route table, so a new route is in the matrix the day it
 * is added) × ten callers, each cell compared with the shared access table.
 * Team people come through the real sign-up flows (createPeople); borrowers
 * join through `joinLoan`, the function accepting a loan invitation runs.
 */
type Who =
  'anonymous' | 'admin' | 'ownerA' | 'assistantA' | 'ownerB' | 'borrowerA1' | 'coBorrowerA1' | 'borrowerA2' | 'borrowerB1' | 'removedA1' | 'linkHolder';

/**
 * `linkHolder`: a third party holding a live upload link for an item of A1,
 * with no account. It sends its token wherever a token could go (the
 * `Authorization` header, the query, a cookie) on every route: the link's
 * own routes let it in, and every other route treats it as anonymous.
 */
const WHOS: Who[] = [
  'anonymous',
  'admin',
  'ownerA',
  'assistantA',
  'ownerB',
  'borrowerA1',
  'coBorrowerA1',
  'borrowerA2',
  'borrowerB1',
  'removedA1',
  'linkHolder',
];

describe.each(backends)('loan role × endpoint matrix on %s', (backend) => {
  const api = setupApi(backend, { listen: true });
  let people: People;
  let a1: string;
  let a2: string;
  let b1: string;
  const borrowers: Partial<Record<Who, Person>> = {};
  let visibleItemA1: string;
  let internalItemA1: string;
  let itemA2: string;
  let versionA1: VersionView;
  /** An upload under way on the visible item, per person who may upload (an upload is its uploader's alone). */
  const uploadOf: Partial<Record<Who, string>> = {};
  /** The link holder's token, and a link of the visible item the team's routes withdraw. */
  let linkToken: string;
  let linkOfItem: string;
  /** A shared comment on A1 (the matrix's `:commentId`), an internal one, and one on A2. */
  let sharedCommentA1: string;
  let internalCommentA1: string;
  let commentA2: string;

  beforeAll(async () => {
    people = await createPeople(api.app, api.db, api.config);
    const ownerA = { ...people.ownerA, name: 'Owner A', password: '' };
    const ownerB = { ...people.ownerB, name: 'Owner B', password: '' };
    a1 = (await createLoan(api, people.teamA, ownerA, { borrowerName: 'A1 Borrower' })).id;
    a2 = (await createLoan(api, people.teamA, ownerA, { borrowerName: 'A2 Borrower' })).id;
    b1 = (await createLoan(api, people.teamB, ownerB, { borrowerName: 'B1 Borrower' })).id;
    borrowers.borrowerA1 = await addBorrower(api, a1);
    borrowers.coBorrowerA1 = await addBorrower(api, a1, { role: 'co_borrower' });
    borrowers.borrowerA2 = await addBorrower(api, a2);
    borrowers.borrowerB1 = await addBorrower(api, b1);
    const removed = await addBorrower(api, a1);
    await api.db.delete(loanParticipant).where(and(eq(loanParticipant.loanId, a1), eq(loanParticipant.userId, removed.userId)));
    borrowers.removedA1 = removed;
    const items = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, a1)).orderBy(asc(checklistItem.position));
    visibleItemA1 = items.find((item) => item.borrowerVisible)!.id;
    internalItemA1 = items.find((item) => !item.borrowerVisible)!.id;
    itemA2 = (await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, a2)))[0]!.id;
    versionA1 = await uploadVersion(api, borrowers.borrowerA1, a1, visibleItemA1, [{ name: 'statement.png', bytes: samplePng() }]);
    for (const who of ['ownerA', 'assistantA', 'borrowerA1', 'coBorrowerA1'] as const) {
      const started = await api
        .as(cookieOf(who))
        .post(`/api/loans/${a1}/checklist/items/${visibleItemA1}/uploads`, { files: [{ name: 'more.png', size: 100 }] });
      uploadOf[who] = started.json<UploadView>().id;
    }
    const hazard = items.find((item) => item.provider === 'third_party' && item.borrowerVisible)!;
    const sent = await api
      .as(people.ownerA.cookie)
      .post(`/api/loans/${a1}/checklist/items/${hazard.id}/upload-links`, { name: 'Ina Insurer', email: 'ina@insure.test' });
    expect(sent.statusCode, sent.body).toBe(201);
    linkToken = await uploadLinkTokenFor(api.db, 'ina@insure.test');
    const started = await api.as().post('/api/upload-link/uploads', { files: [{ name: 'quote.pdf', size: 100 }] }, { headers: linkHeaders().headers });
    expect(started.statusCode, started.body).toBe(201);
    uploadOf.linkHolder = started.json<UploadView>().id;
    const [other] = await api.db
      .insert(uploadLink)
      .values({
        loanId: a1,
        itemId: visibleItemA1,
        name: 'Al Appraiser',
        email: 'al@appraise.test',
        tokenHash: 'f'.repeat(64),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning({ id: uploadLink.id });
    linkOfItem = other!.id;
    const comment = async (who: Who, loanId: string, body: object) => {
      const posted = await api.as(cookieOf(who)).post(`/api/loans/${loanId}/comments`, body);
      expect(posted.statusCode, posted.body).toBe(201);
      return posted.json<{ id: string }>().id;
    };
    sharedCommentA1 = await comment('borrowerA1', a1, { body: 'When is the appraisal?' });
    internalCommentA1 = await comment('assistantA', a1, { body: 'Rate lock expires Friday', visibility: 'internal' });
    commentA2 = await comment('ownerA', a2, { body: 'Welcome aboard' });
  }, 90_000);

  /** What the link holder sends with every request: its token in the header, and as a cookie. */
  const linkHeaders = () => ({ headers: { authorization: `Bearer ${linkToken}`, cookie: `token=${linkToken}; upload_link=${linkToken}` } });

  const person = (who: Exclude<Who, 'anonymous' | 'linkHolder'>) => borrowers[who] ?? people[who as keyof People & Who];
  const cookieOf = (who: Who) => (who === 'anonymous' || who === 'linkHolder' ? '' : (person(who) as Person).cookie);
  const headersOf = (who: Who): Record<string, string> => (who === 'linkHolder' ? linkHeaders().headers : cookieOf(who) ? { cookie: cookieOf(who) } : {});

  /** Who each caller is, and their role on loan A1, written out by hand. */
  const principalOf = (who: Who): Principal => {
    if (who === 'anonymous' || who === 'linkHolder') return { kind: 'anonymous' };
    const { userId, email } = person(who) as Person;
    const base = { kind: 'user' as const, userId, email, name: who, platformAdmin: false, broker: false, mfaEnrolled: false, team: null };
    switch (who) {
      case 'admin':
        return { ...base, platformAdmin: true, mfaEnrolled: true };
      case 'ownerA':
        return { ...base, broker: true, mfaEnrolled: true, team: { id: people.teamA, role: 'owner' } };
      case 'assistantA':
        return { ...base, mfaEnrolled: true, team: { id: people.teamA, role: 'assistant' } };
      case 'ownerB':
        return { ...base, broker: true, mfaEnrolled: true, team: { id: people.teamB, role: 'owner' } };
      default:
        return base;
    }
  };
  const roleOnA1: Record<Who, LoanRole> = {
    anonymous: { kind: 'none' },
    admin: { kind: 'none' },
    ownerA: { kind: 'team', role: 'owner' },
    assistantA: { kind: 'team', role: 'assistant' },
    ownerB: { kind: 'none' },
    borrowerA1: { kind: 'participant', role: 'borrower' },
    coBorrowerA1: { kind: 'participant', role: 'co_borrower' },
    borrowerA2: { kind: 'none' },
    borrowerB1: { kind: 'none' },
    removedA1: { kind: 'none' },
    linkHolder: { kind: 'none' },
  };

  const loanRoutes = () =>
    api.app.routeAccessTable
      .filter((r) => r.url.includes(':loanId') || r.url.startsWith('/api/teams/:teamId/loans') || r.access === 'upload-link' || r.url === '/api/events')
      .filter((r) => r.url.startsWith('/api'));

  /** A concrete URL aimed at loan A1 of team A; other ids are ones that exist nowhere (or the caller themself). */
  const concrete = (url: string, who?: Who) =>
    url
      .replace(':loanId', a1)
      .replace(':itemId', visibleItemA1)
      .replace(':uploadId', (who && uploadOf[who]) ?? '00000000-0000-4000-8000-000000000000')
      .replace(':versionId', versionA1.id)
      .replace(':fileId', versionA1.files[0]!.id)
      .replace(':position', '1')
      .replace(':linkId', linkOfItem)
      .replace(':commentId', sharedCommentA1)
      .replace(':teamId', people.teamA)
      .replace(':userId', people.ownerA.userId)
      .replace(/:\w+/g, '00000000-0000-4000-8000-000000000000');

  it('covers every loan route with the loan action it declares', () => {
    const routes = loanRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const route of routes.filter((r) => r.url.includes(':loanId'))) {
      expect(route.access, `${route.method} ${route.url}`).toBe('loan');
      expect(route.loanAction, `${route.method} ${route.url}`).toBeDefined();
    }
  });

  it('answers each cell as the shared table decides, with nothing of a hidden loan leaking', async () => {
    const hiddenBody = (await api.as().get('/api/__no_such_route__')).json();
    const cells: string[] = [];
    // Safe methods first; the one destructive call an owner may make with an empty body (archive) is undone by restore.
    const routes = [...loanRoutes()].sort((x, y) => Number(x.method !== 'GET') - Number(y.method !== 'GET'));
    for (const route of routes) {
      for (const who of WHOS) {
        const url = route.url === '/api/events' ? `/api/events?loans=${a1}&lastEventId=not-an-id` : concrete(route.url, who);
        const response = await api.app.inject({
          method: route.method as 'GET',
          url: who === 'linkHolder' ? `${url}?token=${linkToken}` : url,
          headers: headersOf(who),
          ...(['POST', 'PATCH', 'PUT', 'DELETE'].includes(route.method) ? { payload: {} } : {}),
        });
        const target =
          route.access === 'upload-link'
            ? who === 'linkHolder'
              ? { uploadLink: { linkId: 'its link', loanId: a1, itemId: 'its item' } }
              : {}
            : route.url.includes(':loanId')
              ? { loanRole: roleOnA1[who] }
              : { teamId: people.teamA };
        // The stream names its loans in the query: the caller's role on A1 decides as the view action does.
        const decision =
          route.url === '/api/events'
            ? decideAccess('loan', principalOf(who), { loanRole: roleOnA1[who] }, EVERYONE_ON_LOAN)
            : decideAccess(route.access, principalOf(who), target, route.loanRoles);
        const cell = `${route.method} ${route.url} as ${who}`;
        cells.push(`${cell}: ${decision}`);
        if (decision === 'unauthenticated' || decision === 'mfa-required') {
          expect(response.statusCode, cell).toBe(401);
        } else if (decision === 'hidden') {
          expect(response.statusCode, cell).toBe(404);
          expect({ ...response.json(), instance: undefined, detail: undefined }, cell).toEqual({ ...hiddenBody, instance: undefined, detail: undefined });
          expect(response.body, cell).not.toContain('A1 Borrower');
        } else {
          expect(response.statusCode, cell).not.toBe(401);
          expect(response.statusCode, cell).toBeLessThan(500);
          if (response.statusCode === 404) expect(response.json().detail, cell).not.toMatch(/^No API route/);
        }
        // A link reads nothing of the loan: not its borrower, not its street.
        if (who === 'linkHolder') for (const secret of ['A1 Borrower', 'Barton Springs']) expect(response.body, cell).not.toContain(secret);
      }
    }
    expect(cells.length).toBe(routes.length * WHOS.length);
    for (const decision of ['allow', 'unauthenticated', 'hidden'])
      expect(
        cells.some((c) => c.endsWith(decision)),
        decision,
      ).toBe(true);
    // Borrowers are allowed somewhere (their loan's view) and hidden elsewhere.
    expect(cells).toContain(`GET /api/loans/:loanId as borrowerA1: allow`);
    expect(cells).toContain(`PATCH /api/loans/:loanId as borrowerA1: hidden`);
    // The link holder is let in by its link, and only there.
    expect(cells).toContain(`GET /api/upload-link as linkHolder: allow`);
    expect(cells).toContain(`GET /api/upload-link as ownerA: hidden`);
    expect(cells).toContain(`GET /api/loans/:loanId as linkHolder: unauthenticated`);
    expect(cells).toContain(`POST /api/loans/:loanId/checklist/items/:itemId/upload-links as borrowerA1: hidden`);
    // Reminders are the team's: a borrower cannot read, switch or send them.
    for (const route of ['GET /api/loans/:loanId/reminders', 'PUT /api/loans/:loanId/reminders', 'POST /api/loans/:loanId/reminders/send']) {
      expect(cells).toContain(`${route} as borrowerA1: hidden`);
      expect(cells).toContain(`${route} as assistantA: allow`);
      expect(cells).toContain(`${route} as linkHolder: unauthenticated`);
    }
  }, 120_000);

  it('gives a platform admin, who holds no role on loans, nothing of them through the platform audit log either', async () => {
    const page = await api.as(cookieOf('admin')).get('/api/admin/audit?action=loan.created');
    expect(page.statusCode).toBe(200);
    const events = page.json<{ events: { action: string; teamId: string | null; at: string }[] }>().events;
    // That the loans were opened, by which team and when: nothing more.
    expect(events.map((e) => [e.action, e.teamId]).sort()).toEqual(
      [
        ['loan.created', people.teamA],
        ['loan.created', people.teamA],
        ['loan.created', people.teamB],
      ].sort(),
    );
    const everything = await api.as(cookieOf('admin')).get('/api/admin/audit');
    for (const body of [page.body, everything.body]) {
      for (const secret of ['A1 Borrower', 'A2 Borrower', 'B1 Borrower', a1, a2, b1, 'Barton Springs']) expect(body, secret).not.toContain(secret);
    }
    // The teams' owners still read their own loans' events whole.
    const teamLog = await api.as(cookieOf('ownerA')).get(`/api/teams/${people.teamA}/audit?action=loan.created`);
    expect(teamLog.body).toContain('A1 Borrower');
    expect(teamLog.body).not.toContain('B1 Borrower');
  });

  it('gives each caller the view their role allows', async () => {
    const view = async (who: Who) => (await api.as(cookieOf(who)).get(`/api/loans/${a1}`)).json<LoanView>();
    expect((await view('ownerA')).viewer).toBe('team');
    expect((await view('assistantA')).viewer).toBe('team');
    expect((await view('borrowerA1')).viewer).toBe('borrower');
    expect((await view('coBorrowerA1')).viewer).toBe('borrower');
    // Concurrent requests from every caller at once get the same answers as one at a time.
    const answers = await Promise.all(
      WHOS.flatMap((who) => Array.from({ length: 3 }, () => api.as(cookieOf(who), { headers: headersOf(who) }).get(`/api/loans/${a1}`))),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes).toEqual(
      WHOS.flatMap((who) =>
        Array(3).fill(['ownerA', 'assistantA', 'borrowerA1', 'coBorrowerA1'].includes(who) ? 200 : ['anonymous', 'linkHolder'].includes(who) ? 401 : 404),
      ),
    );
  });

  it("hides an internal comment from the loan's borrowers, and a comment of another loan from everyone, like an unknown route", async () => {
    const hiddenBody = (await api.as().get('/api/__no_such_route__')).json();
    // The matrix's owner deleted the first shared comment (an owner may): a fresh one.
    const posted = await api.as(cookieOf('borrowerA1')).post(`/api/loans/${a1}/comments`, { body: 'Uploaded the lease' });
    const sharedComment = posted.json<{ id: string }>().id;
    const cases: [Who, string, number][] = [
      ['ownerA', internalCommentA1, 403],
      ['assistantA', internalCommentA1, 200],
      ['borrowerA1', internalCommentA1, 404],
      ['coBorrowerA1', internalCommentA1.toUpperCase(), 404],
      ['borrowerA1', sharedComment, 200],
      ['coBorrowerA1', sharedComment, 403],
      ['ownerA', commentA2, 404],
      ['borrowerA2', sharedComment, 404],
      ['borrowerA1', 'not-a-uuid', 404],
    ];
    for (const [who, commentId, status] of cases) {
      const response = await api.as(cookieOf(who)).patch(`/api/loans/${a1}/comments/${commentId}`, { body: `Edited by ${who}` });
      expect(response.statusCode, `${who} ${commentId}`).toBe(status);
      if (status === 404)
        expect({ ...response.json(), instance: undefined, detail: undefined }, `${who} ${commentId}`).toEqual({
          ...hiddenBody,
          instance: undefined,
          detail: undefined,
        });
    }
    const list = (await api.as(cookieOf('borrowerA1')).get(`/api/loans/${a1}/comments`)).body;
    expect(list).toContain(sharedComment);
    expect(list).not.toContain(internalCommentA1);
    expect(list).not.toContain('Rate lock');
  });

  it('answers the inbox routes for every caller of the loan as the shared table decides, each reading only their own rows', async () => {
    const routes = api.app.routeAccessTable.filter((r) => r.url.startsWith('/api/me/notification'));
    expect(routes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      [
        'GET /api/me/notification-preferences',
        'GET /api/me/notifications',
        'GET /api/me/notifications/unread-count',
        'POST /api/me/notifications/:notificationId/read',
        'POST /api/me/notifications/read-all',
        'PUT /api/me/notification-preferences',
      ].sort(),
    );
    // A step forward tells the loan's borrowers, and nobody else, in their inboxes.
    const moved = await api.as(cookieOf('ownerA')).post(`/api/loans/${a1}/stage`, { from: 'lead', to: 'application' });
    expect(moved.statusCode, moved.body).toBe(200);
    for (const route of routes) {
      for (const who of WHOS) {
        const response = await api.app.inject({
          method: route.method as 'GET',
          url: route.url.replace(':notificationId', '1'),
          headers: headersOf(who),
          ...(['POST', 'PUT'].includes(route.method) ? { payload: {} } : {}),
        });
        const decision = decideAccess(route.access, principalOf(who), {});
        const cell = `${route.method} ${route.url} as ${who}`;
        if (decision === 'allow') {
          expect(response.statusCode, cell).not.toBe(401);
          expect(response.statusCode, cell).toBeLessThan(500);
        } else {
          expect(decision, cell).toBe('unauthenticated');
          expect(response.statusCode, cell).toBe(401);
        }
      }
    }
    const inboxOf = async (who: Who) =>
      (await api.as(cookieOf(who)).get('/api/me/notifications')).json<{ notifications: { kind: string; loanId: string }[] }>();
    for (const who of ['borrowerA1', 'coBorrowerA1'] as const)
      // The stage move above, and the reminder an earlier cell sent now (reminders reach the inbox too).
      expect((await inboxOf(who)).notifications, who).toMatchObject([
        { kind: 'stage_change', loanId: a1 },
        { kind: 'reminder', loanId: a1 },
      ]);
    for (const who of ['borrowerA2', 'borrowerB1', 'removedA1', 'ownerB', 'admin'] as const) expect((await inboxOf(who)).notifications, who).toEqual([]);
  });

  it('answers every loan route spelled another way exactly as the canonical one', async () => {
    const { cookie } = borrowers.borrowerA2 as Person;
    for (const url of [`/api/loans/${a1}`, `/%61pi/loans/${a1}`, `/api/./loans/${a1}`, `/api/loans/${a1.toUpperCase()}`, `/api//loans/${a1}`]) {
      const response = await api.as(cookie).get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('A1 Borrower');
    }
  });

  it("hides an internal item from the loan's borrowers, and any item from a loan it is not on, like an unknown route", async () => {
    const hiddenBody = (await api.as().get('/api/__no_such_route__')).json();
    const cases: [Who, string, number][] = [
      ['ownerA', `/api/loans/${a1}/checklist/items/${internalItemA1}/reopen`, 409],
      ['assistantA', `/api/loans/${a1}/checklist/items/${internalItemA1}/reopen`, 409],
      ['borrowerA1', `/api/loans/${a1}/checklist/items/${internalItemA1}/not-applicable`, 404],
      ['coBorrowerA1', `/api/loans/${a1}/checklist/items/${internalItemA1.toUpperCase()}/not-applicable`, 404],
      ['borrowerA1', `/api/loans/${a1}/checklist/items/${visibleItemA1}/not-applicable/confirm`, 404],
      ['ownerA', `/api/loans/${a1}/checklist/items/${itemA2}/reopen`, 404],
      ['borrowerA2', `/api/loans/${a1}/checklist/items/${itemA2}/not-applicable`, 404],
      ['borrowerA1', `/api/loans/${a1}/checklist/items/not-a-uuid/not-applicable`, 404],
    ];
    for (const [who, url, status] of cases) {
      const response = await api.as(cookieOf(who)).post(url, url.endsWith('/not-applicable') ? { version: 1, reason: 'n/a' } : { version: 1 });
      expect(response.statusCode, `${who} ${url}`).toBe(status);
      if (status === 404)
        expect({ ...response.json(), instance: undefined, detail: undefined }, `${who} ${url}`).toEqual({
          ...hiddenBody,
          instance: undefined,
          detail: undefined,
        });
    }
    const list = (await api.as(cookieOf('borrowerA1')).get(`/api/loans/${a1}/checklist`)).body;
    expect(list).toContain(visibleItemA1);
    expect(list).not.toContain(internalItemA1);
  });

  it('streams loan A1 to the callers who may view it, and a borrower’s stream carries no internal event', async () => {
    const hiddenBody = (await api.as().get('/api/__no_such_route__')).json();
    const streams: Partial<Record<Who, TestStream>> = {};
    try {
      for (const who of WHOS) {
        const stream = await openStream(api.baseUrl, {
          path: who === 'linkHolder' ? `/api/events?loans=${a1}&token=${linkToken}` : `/api/events?loans=${a1}`,
          ...(cookieOf(who) ? { cookie: cookieOf(who) } : who === 'linkHolder' ? { cookie: `token=${linkToken}; upload_link=${linkToken}` } : {}),
        });
        const decision = decideAccess('loan', principalOf(who), { loanRole: roleOnA1[who] }, EVERYONE_ON_LOAN);
        if (decision === 'allow') {
          expect(stream.statusCode, who).toBe(200);
          await stream.live();
          streams[who] = stream;
          continue;
        }
        await stream.ended;
        expect(stream.statusCode, who).toBe(decision === 'hidden' ? 404 : 401);
        if (decision === 'hidden')
          expect({ ...JSON.parse(stream.text()), instance: undefined, detail: undefined }, who).toEqual({
            ...hiddenBody,
            instance: undefined,
            detail: undefined,
          });
        expect(stream.text(), who).not.toContain('A1 Borrower');
      }
      expect(Object.keys(streams).sort()).toEqual(['assistantA', 'borrowerA1', 'coBorrowerA1', 'ownerA']);
      // An internal row (a field edit), then a shared one (a stage move), through the routes.
      const { version, stage } = (await api.as(cookieOf('ownerA')).get(`/api/loans/${a1}`)).json<LoanView>() as LoanView & { version: number; stage: string };
      const edited = await api.as(cookieOf('ownerA')).patch(`/api/loans/${a1}`, { version, lenderLoanNumber: 'INTERNAL-LN-7' });
      expect(edited.statusCode, edited.body).toBe(200);
      const moved = await api.as(cookieOf('ownerA')).post(`/api/loans/${a1}/stage`, { from: stage, to: stage === 'lead' ? 'application' : 'lead' });
      expect(moved.statusCode, moved.body).toBe(200);
      for (const who of ['ownerA', 'assistantA'] as const) {
        await streams[who]!.next((frame) => frame.event === 'activity' && frame.data!.includes('stage.changed'));
        expect(
          streams[who]!.activity().map((event) => event.item.kind),
          who,
        ).toEqual(['loan.updated', 'stage.changed']);
      }
      for (const who of ['borrowerA1', 'coBorrowerA1'] as const) {
        await streams[who]!.next((frame) => frame.event === 'activity' && frame.data!.includes('stage.changed'));
        expect(
          streams[who]!.activity().map((event) => event.item.kind),
          who,
        ).toEqual(['stage.changed']);
        expect(streams[who]!.text(), who).not.toContain('INTERNAL-LN-7');
        expect(streams[who]!.text(), who).not.toContain('"internal"');
        expect(streams[who]!.text(), who).not.toContain(people.ownerA.userId);
      }
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });
});
