import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../shared/domain/notifications';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { unsubscribeToken } from './unsubscribe-token';

const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '', ' ', 'email ', 'EMAIL', 'in-app', [], {}, [[[]]], null, true, 0, -1, Number.MAX_VALUE),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A preferences body with parts replaced by odd shapes: unknown kinds and channels, extra keys, wrong types. */
const preferencesBody = fc.oneof(
  badValue,
  fc.record({ preferences: badValue }),
  fc.record({
    preferences: fc.array(
      fc.record(
        { kind: fc.oneof(fc.constantFrom(...NOTIFICATION_KINDS), badValue), channel: fc.oneof(fc.constantFrom('in_app', 'email'), badValue), extra: badValue },
        { requiredKeys: [] },
      ),
      { maxLength: 30 },
    ),
    other: badValue,
  }),
);

describe.each(backends)('bad input to the notification endpoints on %s (property-based)', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let borrower: Person;

  beforeAll(async () => {
    team = await createTeamWithOwner(api);
    borrower = await addBorrower(api, (await createLoan(api, team.teamId, team.owner)).id);
  });

  const expect4xx = (response: { statusCode: number; body: string }, what: string) => {
    expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
  };

  it('never 5xxs or stores odd preferences, and answers a good body with every kind', async () => {
    await fc.assert(
      fc.asyncProperty(preferencesBody, async (body) => {
        const response = await api.as(borrower).put('/api/me/notification-preferences', body as never);
        if (response.statusCode === 200) {
          expect(response.json<{ preferences: unknown[] }>().preferences).toHaveLength(NOTIFICATION_KINDS.length);
          return;
        }
        expect4xx(response, JSON.stringify(body)?.slice(0, 300) ?? String(body));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('never 5xxs the inbox with odd pages and ids', async () => {
    const odd = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('-1', '0', '1.5', '1e3', '9007199254740993', 'NaN', '%00', '99999999999999999999'));
    await fc.assert(
      fc.asyncProperty(odd, odd, async (before, id) => {
        const list = await api.as(borrower).get(`/api/me/notifications?before=${encodeURIComponent(before)}&limit=${encodeURIComponent(id)}`);
        if (list.statusCode !== 200) expect4xx(list, `before=${before} limit=${id}`);
        const read = await api.as(borrower).post(`/api/me/notifications/${encodeURIComponent(id)}/read`);
        expect4xx(read, `read ${id}`);
      }),
      { numRuns: 80 },
    );
  }, 60_000);

  it('never 5xxs the one-click unsubscribe with odd tokens and bodies, and leaves the preferences as they were', async () => {
    const before = (await api.as(borrower).get('/api/me/notification-preferences')).body;
    const good = unsubscribeToken(api.config.authSecret!, borrower.userId, 'comment');
    const token = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.constant(`${good}x`),
      fc.constant(good.toUpperCase()),
    );
    const body = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('List-Unsubscribe=one-click', 'List-Unsubscribe=', '%ZZ', 'a=b&&&=', ''));
    await fc.assert(
      fc.asyncProperty(token, body, async (t, payload) => {
        const response = await api.app.inject({
          method: 'POST',
          url: `/unsubscribe?token=${encodeURIComponent(t)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
        expect4xx(response, `${t} ${payload}`);
      }),
      { numRuns: 120 },
    );
    expect((await api.as(borrower).get('/api/me/notification-preferences')).body).toBe(before);
  }, 60_000);
});
