import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOAN_FIELDS } from '../../shared/domain/loan-fields';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, createLoan, createTeamWithOwner, sampleLoan, type Team } from '../../test/factories';

/** Values no loan form sends, and values just outside the bounds. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('\u0000', '\ud800', '', ' ', 'NaN', '1e400', '-1', '2027-02-30', '9999-99-99', [], {}, [[[]]], null, true),
  fc.constantFrom(-1, 0, 0.5, 1e21, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 7.12345, 100, 1e-9),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.array(fc.oneof(fc.integer(), fc.double(), fc.string()), { maxLength: 6 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A valid loan with one to four fields replaced by bad values: every cross-field rule sees odd shapes. */
const almostValidLoan = fc
  .array(fc.tuple(fc.constantFrom(...LOAN_FIELDS, 'version', 'unknownField'), badValue), { minLength: 1, maxLength: 4 })
  .map((replacements) => ({ ...sampleLoan(), ...Object.fromEntries(replacements) }));

describe.each(backends)('bad input to the loan endpoints on %s (property-based)', (backend) => {
  const api = setupApi(backend);
  let team: Team;
  let loanId: string;

  beforeAll(async () => {
    team = await createTeamWithOwner(api);
    await addAssistant(api, team.teamId);
    loanId = (await createLoan(api, team.teamId, team.owner)).id;
  });

  const expect4xx = (response: { statusCode: number; body: string }, what: string) => {
    expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
  };

  it('never stores or 5xxs a new loan with bad fields, and names a field', async () => {
    await fc.assert(
      fc.asyncProperty(almostValidLoan, async (body) => {
        const response = await api.as(team.owner).post(`/api/teams/${team.teamId}/loans`, body);
        if (response.statusCode === 201) return; // A replacement that happens to be valid (e.g. 0 taxes).
        expect4xx(response, JSON.stringify(body).slice(0, 300));
        if (response.statusCode === 400) expect(response.json<{ errors?: { field: string }[] }>().errors?.length ?? 0).toBeGreaterThan(0);
      }),
      { numRuns: 120 },
    );
  });

  it('never 5xxs an edit, a stage move or a deletion with bad bodies', async () => {
    await fc.assert(
      fc.asyncProperty(almostValidLoan, async (body) => {
        const response = await api.as(team.owner).patch(`/api/loans/${loanId}`, body);
        if (response.statusCode !== 200) expect4xx(response, `PATCH ${JSON.stringify(body).slice(0, 300)}`);
      }),
      { numRuns: 80 },
    );
    const stageBody = fc.record({ from: badValue, to: badValue, note: badValue }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(stageBody, async (body) => {
        const response = await api.as(team.owner).post(`/api/loans/${loanId}/stage`, body);
        if (response.statusCode !== 200) expect4xx(response, `stage ${JSON.stringify(body)}`);
      }),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(badValue, async (confirmAddress) => {
        const response = await api.as(team.owner).delete(`/api/loans/${loanId}`, { confirmAddress });
        expect4xx(response, `delete ${JSON.stringify(confirmAddress)}`);
      }),
      { numRuns: 40 },
    );
    expect((await api.as(team.owner).get(`/api/loans/${loanId}`)).statusCode).toBe(200);
  });
});
