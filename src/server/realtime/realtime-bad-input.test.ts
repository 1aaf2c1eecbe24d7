import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { openStream } from '../../test/event-stream';
import { addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';

/**
 * What a browser, a proxy or an attacker may send the stream: any loan list,
 * any Last-Event-ID. Never a 5xx; a 400 names what is wrong; a stream that
 * opens is one the caller may read (it is closed at once here).
 */
describe.each(backends)('bad input to the event stream on %s (property-based)', (backend) => {
  const api = setupApi(backend, { listen: true });
  let team: Team;
  let borrower: Person;
  let loanId: string;

  beforeAll(async () => {
    team = await createTeamWithOwner(api);
    loanId = (await createLoan(api, team.teamId, team.owner)).id;
    borrower = await addBorrower(api, loanId);
  });

  const loanList = fc.array(
    fc.oneof(
      fc.constant(() => loanId),
      fc.constant(() => loanId.toUpperCase()),
      fc.constant(() => crypto.randomUUID()),
      fc.string({ unit: 'binary', maxLength: 40 }).map((s) => () => s),
    ),
    { minLength: 0, maxLength: 24 },
  );
  /** Event ids near the real shape (prefixes of the loan, both audiences, huge cursors) and plain junk. */
  const eventId = fc.oneof(
    fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constant(loanIdPrefix),
            fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 40 }).map((hex) => () => hex),
          ),
          fc.constantFrom('t', 'b', 'x', ''),
          fc.oneof(fc.nat(), fc.constantFrom(2 ** 31, 2 ** 53, -1, 99999999999)),
        ),
        { minLength: 1, maxLength: 25 },
      )
      .map((entries) => entries.map(([prefix, audience, cursor]) => `${prefix()}:${audience}${cursor}`).join(',')),
    fc.string({ unit: 'grapheme-ascii', maxLength: 1200 }).map((s) => s.replace(/[\r\n]/g, '')),
  );
  function loanIdPrefix() {
    return loanId.replaceAll('-', '').slice(0, 8);
  }

  it('never answers 5xx to any loan list or event id, and streams only what the caller may read', async () => {
    await fc.assert(
      fc.asyncProperty(loanList, fc.option(eventId), fc.boolean(), fc.boolean(), async (list, id, asBorrower, inQuery) => {
        const loans = list.map((make) => make()).join(',');
        const who = asBorrower ? borrower : team.owner;
        const query = new URLSearchParams({ loans, ...(id !== null && inQuery ? { lastEventId: id } : {}) });
        const stream = await openStream(api.baseUrl, {
          path: `/api/events?${query}`,
          cookie: who.cookie,
          ...(id !== null && !inQuery ? { lastEventId: id } : {}),
        });
        stream.close();
        const what = `${query} ${id ?? ''} → ${stream.statusCode}`;
        expect(stream.statusCode, what).toBeLessThan(500);
        expect([200, 400, 404], what).toContain(stream.statusCode);
        if (stream.statusCode === 200)
          // No loans at all is the inbox-only stream of a page without a loan.
          expect(
            loans === '' ||
              loans
                .toLowerCase()
                .split(',')
                .every((part) => part === loanId),
            what,
          ).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
