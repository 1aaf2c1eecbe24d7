import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAccess, type Principal, type RouteAccess } from '../../shared/domain/access';
import { buildApp } from '../app';
import { createAuth, createCredentialUser } from '../auth/auth';
import { grantPlatformAdmin } from '../invitations/invitations.queries';
import { backends, createTestDatabase, type TestDatabase } from '../../test/databases';
import { testConfig } from '../../test/config';
import { cookieFrom } from '../../test/http';
import { registerAccessLayer } from './access';

const PASSWORD = 'matrix walks every route';

/** A concrete URL for a route pattern: parameters and wildcards filled in. */
const concrete = (url: string) => url.replace(/:\w+/g, 'x').replace(/\*$/, 'get-session');

describe('decideAccess', () => {
  const anonymous: Principal = { kind: 'anonymous' };
  const member: Principal = { kind: 'user', userId: 'u', email: 'u@x.test', name: 'U', platformAdmin: false };
  const admin: Principal = { ...member, platformAdmin: true };
  it.each([
    ['public', anonymous, 'allow'],
    ['public', member, 'allow'],
    ['signed-in', anonymous, 'unauthenticated'],
    ['signed-in', member, 'allow'],
    ['platform-admin', anonymous, 'hidden'],
    ['platform-admin', member, 'hidden'],
    ['platform-admin', admin, 'allow'],
  ] as const)('%s × %o → %s', (access, principal, decision) => {
    expect(decideAccess(access as RouteAccess, principal)).toBe(decision);
  });
});

describe.each(backends)('role × endpoint matrix on %s', (backend) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const config = testConfig();
  const cookies: Record<'anonymous' | 'member' | 'admin', string> = { anonymous: '', member: '', admin: '' };

  const signIn = async (email: string) => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: PASSWORD } });
    expect(response.statusCode).toBe(200);
    return cookieFrom(response);
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    app = await buildApp({ config, database, distDir: '/nonexistent' });
    // A second handle on the same accounts, as the invitation flow would create them.
    const auth = createAuth({ db: database.db, secret: config.authSecret ?? '', publicUrl: config.publicUrl, brandName: 'Coverly' });
    await createCredentialUser(auth, { email: 'member@matrix.test', name: 'Member', password: PASSWORD });
    const admin = await createCredentialUser(auth, { email: 'admin@matrix.test', name: 'Admin', password: PASSWORD });
    await grantPlatformAdmin(database.db, admin.id);
    cookies.member = await signIn('member@matrix.test');
    cookies.admin = await signIn('admin@matrix.test');
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
  });

  const principals: Record<keyof typeof cookies, Principal> = {
    anonymous: { kind: 'anonymous' },
    member: { kind: 'user', userId: 'm', email: 'member@matrix.test', name: 'Member', platformAdmin: false },
    admin: { kind: 'user', userId: 'a', email: 'admin@matrix.test', name: 'Admin', platformAdmin: true },
  };

  it('covers every API route the app has, each with a declared access', () => {
    const api = app.routeAccessTable.filter((r) => r.url.startsWith('/api'));
    expect(api.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      [
        'GET /api/admin/jobs',
        'GET /api/admin/waitlist',
        'GET /api/admin/waitlist.csv',
        'GET /api/auth/*',
        'GET /api/me',
        'POST /api/admin/jobs/:id/retry',
        'POST /api/admin/waitlist/:id/invite',
        'POST /api/auth/*',
        'POST /api/invitations/accept',
        'POST /api/invitations/lookup',
        'POST /api/waitlist',
      ].sort(),
    );
  });

  it('answers each cell as the shared table decides', async () => {
    const hiddenBody = (await app.inject({ url: '/api/__no_such_route__' })).json();
    const cells: string[] = [];
    for (const route of app.routeAccessTable.filter((r) => r.url.startsWith('/api'))) {
      for (const who of Object.keys(cookies) as (keyof typeof cookies)[]) {
        const url = concrete(route.url);
        const response = await app.inject({
          method: route.method as 'GET' | 'POST',
          url,
          headers: cookies[who] ? { cookie: cookies[who] } : {},
          ...(route.method === 'POST' ? { payload: {} } : {}),
        });
        const decision = decideAccess(route.access, principals[who]);
        const cell = `${route.method} ${route.url} as ${who}`;
        cells.push(cell);
        if (decision === 'unauthenticated') {
          expect(response.statusCode, cell).toBe(401);
        } else if (decision === 'hidden') {
          // Exactly what a route that does not exist answers.
          expect(response.statusCode, cell).toBe(404);
          expect({ ...response.json(), instance: undefined, detail: undefined }, cell).toEqual({ ...hiddenBody, instance: undefined, detail: undefined });
        } else {
          expect(response.statusCode, cell).not.toBe(401);
          expect(response.statusCode, cell).toBeLessThan(500);
          if (response.statusCode === 404) expect(response.json().code, cell).not.toBe('not_found');
        }
      }
    }
    expect(cells.length).toBe(app.routeAccessTable.filter((r) => r.url.startsWith('/api')).length * 3);
  });
});

describe('the access layer at start-up', () => {
  it('refuses an API route that declares no access', async () => {
    const database = await createTestDatabase('pglite');
    const app = Fastify();
    const config = testConfig();
    registerAccessLayer(app, { auth: createAuth({ db: database.db, secret: config.authSecret ?? '', publicUrl: config.publicUrl, brandName: 'Coverly' }), db: database.db });
    expect(() => app.get('/api/forgotten', async () => ({}))).toThrow('Route GET /api/forgotten must declare config.access');
    await app.close();
    await database.destroy();
  });
});
