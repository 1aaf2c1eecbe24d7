import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DSCR_TEMPLATE } from '../../shared/domain/checklist-templates';
import { LOAN_PURPOSES } from '../../shared/domain/loan-fields';
import type { AuditPage } from '../../shared/schemas/audit';
import type { BorrowerChecklistItemView, ChecklistItemView, ChecklistTemplateView, ChecklistView } from '../../shared/schemas/checklist';
import type { ActivityPage } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => {
  const date = new Date(`${today()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

describe.each(backends)('the document checklist on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let assistant: Person;
  let loanId: string;
  let borrower: Person;

  const list = async (who: Person, id = loanId) => {
    const response = await api.as(who).get(`/api/loans/${id}/checklist`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ChecklistView>();
  };
  const itemByKey = async (key: string, id = loanId) => (await list(harbor.owner, id)).items.find((item) => item.key === key)!;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending' });
    assistant = await addAssistant(api, harbor.teamId);
    loanId = (await createLoan(api, harbor.teamId, harbor.owner)).id; // single-family purchase
    borrower = await addBorrower(api, loanId);
  });

  it('gives a new loan the DSCR checklist of its deal, with due dates from today', async () => {
    const { items, outstandingRequired } = await list(harbor.owner);
    const keys = items.map((item) => item.key);
    expect(keys).toEqual(
      expect.arrayContaining(['application-1003', 'government-id', 'purchase-contract', 'leases', 'bank-statements', 'appraisal-1007', 'title-commitment']),
    );
    expect(keys).not.toContain('mortgage-statement');
    expect(keys).not.toContain('rent-roll');
    expect(items.map((item) => item.position)).toEqual(items.map((_, i) => i));
    expect(items.every((item) => item.status === 'requested')).toBe(true);
    expect(items.find((item) => item.key === 'government-id')).toMatchObject({
      dueDate: inDays(3),
      provider: 'borrower',
      borrowerVisible: true,
      required: true,
    });
    expect(items.find((item) => item.key === 'bank-statements')).toMatchObject({ validityDays: 60 });
    expect(outstandingRequired).toBe(items.filter((item) => item.required).length);

    const refinance = (
      await createLoan(api, harbor.teamId, harbor.owner, {
        purpose: 'rate_term_refinance',
        propertyType: 'two_to_four',
        unitCount: 2,
        unitRentsCents: [1_500_00, 1_500_00],
        monthlyRentCents: null,
      })
    ).id;
    const refiKeys = (await list(harbor.owner, refinance)).items.map((item) => item.key);
    expect(refiKeys).toEqual(expect.arrayContaining(['mortgage-statement', 'payoff-statement', 'rent-roll', 'appraisal-1025']));
    expect(refiKeys).not.toContain('purchase-contract');
  });

  it('shows borrowers the borrower-visible items only, with no internal field', async () => {
    const team = await list(harbor.owner);
    const mine = (await list(borrower)) as unknown as ChecklistView<BorrowerChecklistItemView>;
    const visible = team.items.filter((item) => item.borrowerVisible);
    expect(mine.items.map((item) => item.id)).toEqual(visible.map((item) => item.id));
    expect(team.items.some((item) => !item.borrowerVisible)).toBe(true);
    for (const item of mine.items) {
      expect(Object.keys(item).sort()).toEqual([
        'category',
        'dueDate',
        'id',
        'label',
        'notApplicableConfirmed',
        'position',
        'provider',
        'reason',
        'required',
        'status',
        'version',
      ]);
    }
    expect(mine.outstandingRequired).toBe(visible.filter((item) => item.required).length);
    // Both read the upload limit (MAX_UPLOAD_MB, 50 by default), so the page checks a file's size before sending it.
    expect([team.maxFileBytes, mine.maxFileBytes]).toEqual([50 * 1024 * 1024, 50 * 1024 * 1024]);
    expect(JSON.stringify(mine)).not.toContain('Title commitment'); // internal by default
  });

  it('numbers a borrower’s items over the items they see, so no position counts an internal one, in the list and in an item their action answers', async () => {
    const id = (await createLoan(api, harbor.teamId, harbor.owner)).id;
    const bea = await addBorrower(api, id, { name: 'Bea Positions' });
    const borrowerKeys = ['category', 'dueDate', 'id', 'label', 'notApplicableConfirmed', 'position', 'provider', 'reason', 'required', 'status', 'version'];
    const theirs = async () => ((await list(bea, id)) as unknown as ChecklistView<BorrowerChecklistItemView>).items;
    const consecutive = async () => {
      const items = await theirs();
      expect(items.map((item) => item.position)).toEqual(items.map((_, i) => i));
      return items;
    };
    // The built-in checklist has internal items between and after the borrower's (title, insurance…): the team's numbers have gaps for them.
    const team = (await list(harbor.owner, id)).items;
    const lastVisible = team.findLastIndex((item) => item.borrowerVisible);
    expect(team.slice(0, lastVisible).some((item) => !item.borrowerVisible)).toBe(true);
    let mine = await consecutive();
    expect(mine.map((item) => item.id)).toEqual(team.filter((item) => item.borrowerVisible).map((item) => item.id));

    // The team moves an internal item to the top: the borrower's numbers do not move.
    const internal = team.find((item) => !item.borrowerVisible)!;
    const order = [internal.id, ...team.filter((item) => item.id !== internal.id).map((item) => item.id)];
    expect((await api.as(harbor.owner).put(`/api/loans/${id}/checklist/order`, { itemIds: order })).statusCode).toBe(200);
    expect(await consecutive()).toEqual(mine);

    // One item, as the borrower's own action answers it: its place among theirs, and only the fields of their view.
    const last = mine.at(-1)!;
    const claimed = await api
      .as(bea)
      .post(`/api/loans/${id}/checklist/items/${last.id}/not-applicable`, { version: last.version, reason: 'Not for this deal' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json<BorrowerChecklistItemView>().position).toBe(mine.length - 1);
    expect(Object.keys(claimed.json()).sort()).toEqual(borrowerKeys);
    mine = await consecutive();
    expect(mine.at(-1)).toEqual(claimed.json());
    // The team's answer to the same kind of action is the team's view, with the team's number.
    const sentBack = await api.as(harbor.owner).post(`/api/loans/${id}/checklist/items/${last.id}/not-applicable/reject`, { version: last.version + 1 });
    expect(sentBack.statusCode, sentBack.body).toBe(200);
    expect(sentBack.json<ChecklistItemView>()).toMatchObject({ borrowerVisible: true, position: order.indexOf(last.id) });
  });

  it('lets the team add, rename and remove items, with a stale version refused', async () => {
    const added = await api.as(assistant).post(`/api/loans/${loanId}/checklist/items`, { label: 'Lease addendum', category: 'income' });
    expect(added.statusCode, added.body).toBe(201);
    const item = added.json<ChecklistItemView>();
    expect(item).toMatchObject({
      key: null,
      label: 'Lease addendum',
      required: true,
      provider: 'borrower',
      borrowerVisible: true,
      status: 'requested',
      version: 1,
    });
    expect(item.position).toBe((await list(harbor.owner)).items.length - 1);

    const [first, second] = await Promise.all([
      api.as(harbor.owner).patch(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: 1, label: 'Lease addendum (unit B)' }),
      api.as(assistant).patch(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: 1, dueDate: '2026-12-31' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const missingVersion = await api.as(harbor.owner).patch(`/api/loans/${loanId}/checklist/items/${item.id}`, { label: 'x' });
    expect(missingVersion.statusCode).toBe(400);
    expect(missingVersion.json().errors.map((e: { field: string }) => e.field)).toContain('version');
    const current = (await list(harbor.owner)).items.find((i) => i.id === item.id)!;
    expect(current.version).toBe(2);

    expect((await api.as(harbor.owner).delete(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: 1 })).statusCode).toBe(409);
    expect((await api.as(harbor.owner).delete(`/api/loans/${loanId}/checklist/items/${item.id}`, { version: 2 })).statusCode).toBe(204);
    expect((await list(harbor.owner)).items.some((i) => i.id === item.id)).toBe(false);
    // Borrowers read what happened to the items they see, never an id of a person.
    const feed = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>();
    // Whichever of the two edits came first won: the rename, or the due date with the label as it was.
    const removedLabel = first.statusCode === 200 ? 'Lease addendum (unit B)' : 'Lease addendum';
    expect(feed.items.filter((row) => row.kind.startsWith('checklist.')).map((row) => [row.kind, row.data.label])).toEqual([
      ['checklist.item_removed', removedLabel],
      ['checklist.item_added', 'Lease addendum'],
    ]);
  });

  it('reorders the checklist only by an order that names every item once', async () => {
    const { items } = await list(harbor.owner);
    const reversed = items.map((item) => item.id).toReversed();
    const response = await api.as(assistant).put(`/api/loans/${loanId}/checklist/order`, { itemIds: reversed });
    expect(response.statusCode, response.body).toBe(200);
    expect((await list(harbor.owner)).items.map((item) => item.id)).toEqual(reversed);
    for (const itemIds of [reversed.slice(1), [...reversed, reversed[0]], [...reversed.slice(1), '00000000-0000-4000-8000-000000000000']]) {
      const bad = await api.as(assistant).put(`/api/loans/${loanId}/checklist/order`, { itemIds });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].field).toBe('itemIds');
    }
    await api.as(assistant).put(`/api/loans/${loanId}/checklist/order`, { itemIds: items.map((item) => item.id) });
  });

  it('moves status tags only by the actions that imply them: waive, "not applicable" confirmed or sent back, reopen', async () => {
    const id = await itemByKey('leases').then((item) => item.id);
    const url = (action: string) => `/api/loans/${loanId}/checklist/items/${id}/${action}`;
    const claim = await api.as(borrower).post(url('not-applicable'), { version: 1, reason: 'The property is vacant; I will sign a lease after closing.' });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json()).toMatchObject({ status: 'not_applicable', notApplicableConfirmed: false, version: 2 });
    expect((await list(harbor.owner)).outstandingRequired).toBe((await list(harbor.owner)).items.filter((i) => i.required).length);
    expect((await api.as(harbor.owner).post(url('not-applicable/reject'), { version: 2 })).json()).toMatchObject({
      status: 'requested',
      reason: null,
      version: 3,
    });
    expect((await api.as(borrower).post(url('not-applicable'), { version: 3, reason: 'Vacant property' })).statusCode).toBe(200);
    const confirmed = await api.as(assistant).post(url('not-applicable/confirm'), { version: 4 });
    expect(confirmed.json()).toMatchObject({ status: 'not_applicable', notApplicableConfirmed: true, reason: 'Vacant property' });
    expect((await api.as(assistant).post(url('not-applicable/confirm'), { version: 5 })).statusCode).toBe(409);
    expect((await api.as(harbor.owner).post(url('reopen'), { version: 5 })).json()).toMatchObject({
      status: 'requested',
      reason: null,
      notApplicableConfirmed: false,
    });

    const waived = await api.as(harbor.owner).post(url('waive'), { version: 6, reason: 'Lender waived it for this deal' });
    expect(waived.json()).toMatchObject({ status: 'waived', reason: 'Lender waived it for this deal' });
    const refused = await api.as(borrower).post(url('not-applicable'), { version: 7, reason: 'x' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain('waived');
    expect((await api.as(harbor.owner).post(url('waive'), { version: 6, reason: 'again' })).statusCode).toBe(409);
    expect((await api.as(harbor.owner).post(url('waive'), { version: 7 })).statusCode).toBe(400);
    // Borrowers are not the ones to waive, confirm or reopen.
    for (const action of ['waive', 'reopen', 'not-applicable/confirm'])
      expect((await api.as(borrower).post(url(action), { version: 7, reason: 'x' })).statusCode).toBe(404);
    const feed = (await api.as(borrower).get(`/api/loans/${loanId}/activity`)).json<ActivityPage>();
    expect(feed.items[0]).toMatchObject({
      kind: 'checklist.item_waived',
      actor: { name: 'Harbor Lending' },
      data: { label: 'Signed leases', reason: 'Lender waived it for this deal' },
    });
    // What the borrower did names the borrower; nothing names anyone by id.
    expect(feed.items.find((row) => row.kind === 'checklist.item_not_applicable')?.actor).toEqual({ name: 'Bea Borrower' });
    for (const row of feed.items) expect(Object.keys(row.actor ?? {})).not.toContain('id');
  });

  describe("the team's template", () => {
    const url = () => `/api/teams/${harbor.teamId}/checklist-template`;
    const read = async (who: Person = harbor.owner) => {
      const response = await api.as(who).get(url());
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ChecklistTemplateView>();
    };
    const items = [
      { key: 'government-id', label: 'Photo ID (both sides)', category: 'identity', required: true, provider: 'borrower', borrowerVisible: true, dueInDays: 2 },
      { key: 'w9', label: 'W-9', category: 'entity', required: false, provider: 'borrower', borrowerVisible: true },
      {
        key: 'flood-cert',
        label: 'Flood certificate',
        category: 'insurance',
        required: true,
        provider: 'third_party',
        borrowerVisible: false,
        propertyTypes: ['condo'],
      },
    ];

    it("uses the team's own template for new loans once saved, and resets to the built-in one", async () => {
      const builtIn = await read(assistant);
      expect(builtIn).toMatchObject({ builtIn: true, revision: expect.stringMatching(/^[0-9a-f]{16}$/) });
      expect(builtIn.items.map((item) => item.key)).toEqual(DSCR_TEMPLATE.map((item) => item.key));
      expect((await read()).revision).toBe(builtIn.revision); // the same template reads as the same revision

      const saved = await api.as(harbor.owner).put(url(), { revision: builtIn.revision, items });
      expect(saved.statusCode, saved.body).toBe(200);
      const own = saved.json<ChecklistTemplateView>();
      expect(own.builtIn).toBe(false);
      expect(own.revision).not.toBe(builtIn.revision);
      expect(await read(assistant)).toEqual(own);
      const fresh = (await createLoan(api, harbor.teamId, harbor.owner)).id;
      expect((await list(harbor.owner, fresh)).items.map((item) => [item.key, item.label, item.dueDate])).toEqual([
        ['government-id', 'Photo ID (both sides)', inDays(2)],
        ['w9', 'W-9', null],
      ]);

      const reset = await api.as(harbor.owner).delete(url(), { revision: own.revision });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json<ChecklistTemplateView>()).toMatchObject({ builtIn: true, revision: builtIn.revision });
      // Both changes are in the team's audit log, by whom.
      const audit = (await api.as(harbor.owner).get(`/api/teams/${harbor.teamId}/audit`)).json<AuditPage>();
      expect(audit.events.filter((row) => row.action.startsWith('checklist_template.')).map((row) => [row.action, row.actorEmail, row.data])).toEqual([
        ['checklist_template.reset', harbor.owner.email, {}],
        ['checklist_template.saved', harbor.owner.email, { items: 3 }],
      ]);
    });

    it('lets owners change it and assistants only read it', async () => {
      const { revision } = await read(assistant);
      for (const response of [await api.as(assistant).put(url(), { revision, items }), await api.as(assistant).delete(url(), { revision })]) {
        expect(response.statusCode).toBe(404); // the same answer as a route that does not exist
      }
      expect((await read()).builtIn).toBe(true);
    });

    it('refuses a save or a reset over a revision someone else replaced (409), and lets one of two saves of the same revision win', async () => {
      const { revision } = await read();
      const renamed = (label: string) => [{ ...items[0], label }, ...items.slice(1)];
      const [first, second] = await Promise.all([
        api.as(harbor.owner).put(url(), { revision, items: renamed('ID, first save') }),
        api.as(harbor.owner).put(url(), { revision, items: renamed('ID, second save') }),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
      const lost = first.statusCode === 409 ? first : second;
      expect(lost.json()).toMatchObject({ code: 'conflict', detail: expect.stringContaining('Someone else changed the checklist template') });
      const current = await read();
      expect(current.items[0]!.label).toBe(first.statusCode === 200 ? 'ID, first save' : 'ID, second save');

      expect((await api.as(harbor.owner).delete(url(), { revision })).statusCode).toBe(409);
      expect((await api.as(harbor.owner).put(url(), { revision, items })).statusCode).toBe(409);
      expect((await read()).items[0]!.label).toBe(current.items[0]!.label);
      for (const body of [{ items }, {}, { revision: 'x', items }]) {
        const missing = await api.as(harbor.owner).put(url(), body);
        expect(missing.statusCode).toBe(400);
        expect(missing.json().errors.map((e: { field: string }) => e.field)).toContain('revision');
      }
      expect((await api.as(harbor.owner).delete(url())).statusCode).toBe(400);
      expect((await api.as(harbor.owner).delete(url(), { revision: current.revision })).json().builtIn).toBe(true);
    });

    it('refuses a bad template field by field, and stores every purpose or property type listed as all of them', async () => {
      const { revision } = await read();
      const base = items[1]!;
      const cases: [Record<string, unknown>[], string, RegExp][] = [
        [[items[0]!, items[0]!], 'items.1.key', /used twice/],
        [[{ ...base, key: 'W 9' }], 'items.0.key', /lower-case/],
        [[{ ...base, label: '   ' }], 'items.0.label', /Give the item a label/],
        [[{ ...base, label: 'x'.repeat(121) }], 'items.0.label', /at most 120/],
        [[{ ...base, validityDays: 0 }], 'items.0.validityDays', /at least 1 day/],
        [[{ ...base, validityDays: 3651 }], 'items.0.validityDays', /at most 3650/],
        [[{ ...base, dueInDays: 2.5 }], 'items.0.dueInDays', /whole days/],
        [[{ ...base, purposes: [] }], 'items.0.purposes', /at least one loan purpose/],
        [[{ ...base, purposes: ['purchase', 'purchase'] }], 'items.0.purposes', /once/],
        [[{ ...base, propertyTypes: ['condo', 'castle'] }], 'items.0.propertyTypes.1', /Not a property type/],
        [[{ ...base, provider: 'lender' }], 'items.0.provider', /borrower or third_party/],
        [[{ ...base, colour: 'red' }], 'items.0.colour', /Unknown field/],
        [[], 'items', /at least one item/],
        [Array.from({ length: 101 }, (_, i) => ({ ...base, key: `item-${i}` })), 'items', /at most 100/],
      ];
      for (const [bad, field, message] of cases) {
        const response = await api.as(harbor.owner).put(url(), { revision, items: bad });
        expect(response.statusCode, field).toBe(400);
        const issue = response.json().errors.find((e: { field: string }) => e.field === field);
        expect(`${issue?.message}`, `${field}: ${response.body}`).toMatch(message);
      }
      expect((await read()).builtIn).toBe(true);

      const all = await api.as(harbor.owner).put(url(), {
        revision,
        items: [{ ...base, purposes: [...LOAN_PURPOSES].reverse(), propertyTypes: ['condo', 'five_plus'] }],
      });
      expect(all.statusCode, all.body).toBe(200);
      const [stored] = all.json<ChecklistTemplateView>().items;
      expect(stored).not.toHaveProperty('purposes');
      expect(stored!.propertyTypes).toEqual(['condo', 'five_plus']);
      expect((await api.as(harbor.owner).delete(url(), { revision: all.json().revision })).statusCode).toBe(200);
    });
  });

  it('offers what a changed deal lacks and adds the chosen template items', async () => {
    const created = await createLoan(api, harbor.teamId, harbor.owner);
    const id = created.id;
    const moved = await api.as(harbor.owner).patch(`/api/loans/${id}`, { version: created.version, purpose: 'cash_out_refinance' });
    expect(moved.statusCode, moved.body).toBe(200);
    const suggestions = (await api.as(assistant).get(`/api/loans/${id}/checklist/suggestions`)).json();
    expect(suggestions.missing.map((item: { key: string }) => item.key).sort()).toEqual(['mortgage-statement', 'mortgage-verification', 'payoff-statement']);
    expect(suggestions.noLongerApplies.map((item: ChecklistItemView) => item.key)).toEqual(['purchase-contract']);
    const added = await api.as(assistant).post(`/api/loans/${id}/checklist/from-template`, { keys: ['mortgage-statement', 'payoff-statement'] });
    expect(added.statusCode, added.body).toBe(200);
    const keys = (await list(harbor.owner, id)).items.map((item) => item.key);
    expect(keys.slice(-2)).toEqual(['mortgage-statement', 'payoff-statement']);
    expect(keys).toContain('purchase-contract'); // nothing removed without asking
    const unknown = await api.as(assistant).post(`/api/loans/${id}/checklist/from-template`, { keys: ['no-such-item'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'keys' });
  });

  it('never 5xxs the checklist endpoints with bad bodies (property-based)', async () => {
    const { items } = await list(harbor.owner);
    const itemId = items[0]!.id;
    const bad = fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '', ' ', 'NaN', '2027-02-30', [], {}, null, true, -1, 0, 1e21, 2 ** 53 + 2, 7.5),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const body = fc.dictionary(
      fc.constantFrom(
        'version',
        'label',
        'category',
        'required',
        'provider',
        'borrowerVisible',
        'dueDate',
        'validityDays',
        'reason',
        'itemIds',
        'keys',
        'items',
        'revision',
        'x',
      ),
      bad,
      { maxKeys: 4 },
    );
    const targets = [
      ['POST', `/api/loans/${loanId}/checklist/items`],
      ['PATCH', `/api/loans/${loanId}/checklist/items/${itemId}`],
      ['DELETE', `/api/loans/${loanId}/checklist/items/${itemId}`],
      ['PUT', `/api/loans/${loanId}/checklist/order`],
      ['POST', `/api/loans/${loanId}/checklist/items/${itemId}/waive`],
      ['POST', `/api/loans/${loanId}/checklist/items/${itemId}/not-applicable/confirm`],
      ['POST', `/api/loans/${loanId}/checklist/from-template`],
      ['PUT', `/api/teams/${harbor.teamId}/checklist-template`],
      ['DELETE', `/api/teams/${harbor.teamId}/checklist-template`],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async ([method, url], payload) => {
        const response = await api.app.inject({ method, url, payload: payload as object, headers: { cookie: harbor.owner.cookie } });
        expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload).slice(0, 200)} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});
