import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, COMMENT_THREADS_PAGE_SIZE } from '../../shared/domain/comments';
import type { CommentListView, CommentView, MentionCandidatesView, ReadCursorView } from '../../shared/schemas/comments';
import type { ActivityPage } from '../../shared/schemas/loans';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { activity, checklistItem } from '../db/schema';

describe.each(backends)('comments on a loan on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let other: Team;
  let assistant: Person;
  let borrower: Person;
  let coBorrower: Person;
  let strangerBorrower: Person;
  let loanId: string;
  let visibleItem: string;
  let internalItem: string;

  const url = (id = loanId) => `/api/loans/${id}/comments`;
  const post = async (who: Person, body: object, id = loanId) => {
    const response = await api.as(who).post(url(id), body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CommentView>();
  };
  const list = async (who: Person, query = '', id = loanId) => {
    const response = await api.as(who).get(`${url(id)}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<CommentListView>();
  };
  const cursorOf = async (who: Person, id = loanId) => (await api.as(who).get(`/api/loans/${id}/read-cursor`)).json<ReadCursorView>();
  const activityOf = async (who: Person, id = loanId) => (await api.as(who).get(`/api/loans/${id}/activity`)).json<ActivityPage>();
  const newLoan = async () => (await createLoan(api, harbor.teamId, harbor.owner)).id;

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending', owner: { name: 'Owen Owner' } });
    other = await createTeamWithOwner(api, { name: 'Other Lending', owner: { name: 'Olga Other' } });
    assistant = await addAssistant(api, harbor.teamId, { name: 'Asha Assistant' });
    loanId = await newLoan();
    borrower = await addBorrower(api, loanId, { name: 'Bea Borrower' });
    coBorrower = await addBorrower(api, loanId, { name: 'Cy Coborrower', role: 'co_borrower' });
    strangerBorrower = await addBorrower(api, await newLoan(), { name: 'Sam Stranger' });
    const items = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, loanId)).orderBy(asc(checklistItem.position));
    visibleItem = items.find((item) => item.borrowerVisible)!.id;
    internalItem = items.find((item) => !item.borrowerVisible)!.id;
  });

  it('keeps threads oldest first with their replies, which take their thread’s visibility and item', async () => {
    const id = await newLoan();
    const bea = await addBorrower(api, id, { name: 'Bea Two' });
    const [item] = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, id)).orderBy(asc(checklistItem.position));
    // A thread of another loan, to reply to from this one below.
    const elsewhere = await post(harbor.owner, { body: 'On the first loan' });
    const thread = await post(harbor.owner, { body: '  Welcome! Send your ID first.  ', itemId: item!.id }, id);
    expect(thread).toMatchObject({
      body: 'Welcome! Send your ID first.',
      visibility: 'shared',
      itemId: item!.id,
      parentId: null,
      canEdit: true,
      canDelete: true,
    });
    expect(thread.author).toEqual({ id: harbor.owner.userId, name: 'Owen Owner', side: 'team' });
    const answer = await post(bea, { body: 'Done, uploaded it.', parentId: thread.id }, id);
    expect(answer).toMatchObject({ parentId: thread.id, visibility: 'shared', itemId: item!.id, canEdit: true, canDelete: true });
    expect(answer.author).toMatchObject({ name: 'Bea Two', side: 'borrower' });
    const note = await post(assistant, { body: 'Her ID expires next month', visibility: 'internal' }, id);
    const noteReply = await post(harbor.owner, { body: 'Ask for a passport then', parentId: note.id }, id);
    expect(noteReply.visibility).toBe('internal');

    const team = await list(harbor.owner, '', id);
    expect(team.threads.map((t) => [t.body, t.replies.map((r) => r.body)])).toEqual([
      ['Welcome! Send your ID first.', ['Done, uploaded it.']],
      ['Her ID expires next month', ['Ask for a passport then']],
    ]);
    expect(team.nextBefore).toBeNull();
    expect(team.itemCounts).toEqual({ [item!.id]: 2 });

    // One level of threads: a reply to a reply, a reply changing visibility or item, are refused by name.
    for (const [body, field] of [
      [{ body: 'x', parentId: answer.id }, 'parentId'],
      [{ body: 'x', parentId: note.id, visibility: 'shared' }, 'visibility'],
      [{ body: 'x', parentId: thread.id, itemId: null }, 'itemId'],
      [{ body: 'x', parentId: elsewhere.id }, 'parentId'],
      [{ body: 'x', parentId: '00000000-0000-4000-8000-000000000000' }, 'parentId'],
    ] as const) {
      const refused = await api.as(harbor.owner).post(url(id), body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().errors[0].field).toBe(field);
    }
  });

  it('never gives a borrower an internal comment or any trace of it: not in the list, the counts, the unread count or the activity', async () => {
    const id = await newLoan();
    const bea = await addBorrower(api, id, { name: 'Bea Three' });
    const items = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, id)).orderBy(asc(checklistItem.position));
    const shown = items.find((item) => item.borrowerVisible)!.id;
    const hidden = items.find((item) => !item.borrowerVisible)!.id;
    const shared = await post(harbor.owner, { body: 'Hello Bea', itemId: shown }, id);
    const secret = await post(assistant, { body: 'SECRET credit is thin', visibility: 'internal', itemId: shown }, id);
    await post(harbor.owner, { body: 'SECRET reply', parentId: secret.id }, id);
    await post(assistant, { body: 'SECRET on an internal item', visibility: 'internal', itemId: hidden }, id);

    const seen = await list(bea, '', id);
    expect(seen.threads.map((t) => t.id)).toEqual([shared.id]);
    expect(JSON.stringify(seen)).not.toContain('SECRET');
    expect(JSON.stringify(seen)).not.toContain(hidden);
    expect(seen.itemCounts).toEqual({ [shown]: 1 });
    expect(seen.unread).toEqual({ count: 1, firstUnreadId: shared.id });
    expect(seen.latestCursor).toBe(shared.cursor);
    expect(await cursorOf(bea, id)).toEqual({ cursor: 0, latestCursor: shared.cursor, unread: { count: 1, firstUnreadId: shared.id } });
    const team = await list(harbor.owner, '', id);
    expect(team.itemCounts).toEqual({ [shown]: 3, [hidden]: 1 });
    // The owner wrote the shared one and the reply: the assistant's two are unread to them.
    expect(team.unread).toEqual({ count: 2, firstUnreadId: secret.id });

    const feed = await activityOf(bea, id);
    expect(feed.items.filter((row) => row.kind.startsWith('comment.'))).toEqual([
      expect.objectContaining({ kind: 'comment.posted', actor: { name: 'Owen Owner' }, data: { commentId: shared.id, parentId: null, byName: 'Owen Owner' } }),
    ]);
    expect(JSON.stringify(feed)).not.toContain('SECRET');
    expect((await activityOf(harbor.owner, id)).items.filter((row) => row.kind === 'comment.posted')).toHaveLength(4);
    // The borrowers' sequence has no gap where the internal rows went.
    const sharedSeqs = (await api.db.select({ s: activity.sharedSeq }).from(activity).where(eq(activity.loanId, id)))
      .map((row) => row.s)
      .filter((s) => s !== null)
      .sort((a, b) => a! - b!);
    expect(sharedSeqs).toEqual(sharedSeqs.map((_, i) => i + 1));

    // Nor can a borrower write one, reply into one, or attach to an item they do not see.
    for (const [body, field, message] of [
      [{ body: 'x', visibility: 'internal' }, 'visibility', /shared with everyone/],
      [{ body: 'x', parentId: secret.id }, 'parentId', /no such comment/],
      [{ body: 'x', itemId: hidden }, 'itemId', /no such checklist item/],
    ] as const) {
      const refused = await api.as(bea).post(url(id), body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors[0]).toMatchObject({ field, message: expect.stringMatching(message) });
    }
    // The item filter shows a borrower nothing of an internal item's threads.
    expect((await list(bea, `?itemId=${hidden}`, id)).threads).toEqual([]);
    expect((await list(harbor.owner, `?itemId=${hidden}`, id)).threads).toHaveLength(1);
  });

  it('keeps shared comments off internal items, and hides an item made internal since from borrowers', async () => {
    const refused = await api.as(harbor.owner).post(url(), { body: 'About this', itemId: internalItem });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0]).toMatchObject({ field: 'itemId', message: 'An internal item can only have internal comments' });
    const id = await newLoan();
    const bea = await addBorrower(api, id);
    const [item] = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, id)).orderBy(asc(checklistItem.position));
    const shared = await post(bea, { body: 'Is a passport fine?', itemId: item!.id }, id);
    await api.db.update(checklistItem).set({ borrowerVisible: false }).where(eq(checklistItem.id, item!.id));
    const seen = await list(bea, '', id);
    expect(seen.threads[0]).toMatchObject({ id: shared.id, itemId: null });
    expect(seen.itemCounts).toEqual({});
    expect((await list(harbor.owner, '', id)).threads[0]!.itemId).toBe(item!.id);
  });

  it('lets only the author edit, shown as edited, with the earlier text in the team’s activity only', async () => {
    const comment = await post(borrower, { body: 'My rent is 2,400' });
    for (const who of [harbor.owner, assistant, coBorrower]) {
      const response = await api.as(who).patch(`${url()}/${comment.id}`, { body: 'Changed by someone else' });
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toBe('Only its author can edit a comment');
    }
    const edited = await api.as(borrower).patch(`${url()}/${comment.id}`, { body: 'My rent is 2,450' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<CommentView>()).toMatchObject({ body: 'My rent is 2,450', editedAt: expect.any(String), cursor: comment.cursor });
    const row = (await activityOf(harbor.owner)).items.find((item) => item.kind === 'comment.edited' && item.data.commentId === comment.id)!;
    expect(row.data).toMatchObject({ previousBody: 'My rent is 2,400', byName: 'Bea Borrower' });
    const theirs = (await activityOf(coBorrower)).items.find((item) => item.kind === 'comment.edited' && item.data.commentId === comment.id)!;
    expect(theirs.data).toEqual({ commentId: comment.id, byName: 'Bea Borrower' });
    // The same text again changes nothing and records nothing.
    const again = await api.as(borrower).patch(`${url()}/${comment.id}`, { body: ' My rent is 2,450 ' });
    expect(again.statusCode).toBe(200);
    expect((await activityOf(harbor.owner)).items.filter((item) => item.kind === 'comment.edited' && item.data.commentId === comment.id)).toHaveLength(1);
  });

  it('deletes for its author or an owner: the text gone, replies kept, an emptied thread with no replies left out', async () => {
    const id = await newLoan();
    const bea = await addBorrower(api, id, { name: 'Bea Four' });
    const thread = await post(bea, { body: 'My account number is 123456789' }, id);
    const reply = await post(assistant, { body: 'Thanks, got it', parentId: thread.id }, id);
    const lonely = await post(assistant, { body: 'Typo thread' }, id);
    for (const [who, commentId] of [
      [assistant, thread.id],
      [bea, reply.id],
    ] as const) {
      const refused = await api.as(who).delete(`${url(id)}/${commentId}`);
      expect(refused.statusCode).toBe(403);
    }
    expect((await api.as(harbor.owner).delete(`${url(id)}/${thread.id}`)).statusCode).toBe(204);
    expect((await api.as(assistant).delete(`${url(id)}/${lonely.id}`)).statusCode).toBe(204);
    expect((await api.as(assistant).delete(`${url(id)}/${lonely.id}`)).statusCode).toBe(204);
    const seen = await list(bea, '', id);
    expect(seen.threads).toHaveLength(1);
    expect(seen.threads[0]).toMatchObject({ id: thread.id, body: '', deletedAt: expect.any(String), canEdit: false, canDelete: false });
    expect(seen.threads[0]!.replies.map((r) => r.body)).toEqual(['Thanks, got it']);
    expect(JSON.stringify(seen)).not.toContain('123456789');
    expect(JSON.stringify(await activityOf(harbor.owner, id))).not.toContain('123456789');
    expect((await activityOf(harbor.owner, id)).items.filter((row) => row.kind === 'comment.deleted')).toHaveLength(2);
    // A deleted comment cannot be edited, nor a deleted thread replied to.
    expect((await api.as(bea).patch(`${url(id)}/${thread.id}`, { body: 'again' })).statusCode).toBe(409);
    expect((await api.as(bea).post(url(id), { body: 'again', parentId: thread.id })).statusCode).toBe(400);
  });

  it('keeps a deleted comment’s earlier texts nowhere either: its edits’ activity rows lose them with the deletion', async () => {
    const id = await newLoan();
    const bea = await addBorrower(api, id, { name: 'Bea Five' });
    const comment = await post(bea, { body: 'Wire it to account 5550101', mentions: [harbor.owner.userId] }, id);
    for (const [body, mentions] of [
      ['Wire it to account 5550102', [assistant.userId]],
      ['Call me about the wire', []],
    ] as const) {
      const edited = await api.as(bea).patch(`${url(id)}/${comment.id}`, { body, mentions });
      expect(edited.statusCode, edited.body).toBe(200);
    }
    const edits = async () => (await activityOf(harbor.owner, id)).items.filter((row) => row.kind === 'comment.edited' && row.data.commentId === comment.id);
    expect((await edits()).map((row) => row.data.previousBody)).toEqual(['Wire it to account 5550102', 'Wire it to account 5550101']);

    expect((await api.as(harbor.owner).delete(`${url(id)}/${comment.id}`)).statusCode).toBe(204);
    // The edits stay in the history (who edited, when), without what the comment said or whom it named.
    expect((await edits()).map((row) => row.data)).toEqual([
      { commentId: comment.id, byName: 'Bea Five' },
      { commentId: comment.id, byName: 'Bea Five' },
    ]);
    // Nor does the row that posted it keep whom it named.
    const posted = (await activityOf(harbor.owner, id)).items.find((row) => row.kind === 'comment.posted' && row.data.commentId === comment.id);
    expect(posted?.data).toMatchObject({ commentId: comment.id, byName: 'Bea Five', mentions: [] });
    const stored = await api.db.select({ data: activity.data }).from(activity).where(eq(activity.loanId, id));
    expect(JSON.stringify(stored)).not.toContain('555010');
    expect(JSON.stringify(stored)).not.toContain(assistant.userId);
    expect(JSON.stringify(stored)).not.toContain(harbor.owner.userId);
  });

  it('offers and accepts mentions of the people who may see the comment only', async () => {
    const shared = (await api.as(borrower).get(`${url()}/mention-candidates`)).json<MentionCandidatesView>();
    expect(shared.people.map((p) => [p.name, p.side])).toEqual([
      ['Asha Assistant', 'team'],
      ['Owen Owner', 'team'],
      ['Bea Borrower', 'borrower'],
      ['Cy Coborrower', 'borrower'],
    ]);
    const internal = (await api.as(assistant).get(`${url()}/mention-candidates?visibility=internal`)).json<MentionCandidatesView>();
    expect(internal.people.map((p) => p.name)).toEqual(['Asha Assistant', 'Owen Owner']);
    const asked = await api.as(borrower).get(`${url()}/mention-candidates?visibility=internal`);
    expect(asked.statusCode).toBe(400);
    expect(asked.body).not.toContain('Asha');

    const mentioned = await post(borrower, { body: '@Owen Owner can you check?', mentions: [harbor.owner.userId, harbor.owner.userId] });
    expect(mentioned.mentions).toEqual([{ id: harbor.owner.userId, name: 'Owen Owner' }]);
    const cases: [Person, object, string][] = [
      [harbor.owner, { body: 'x', mentions: [other.owner.userId] }, 'You can only mention people on this loan'],
      [harbor.owner, { body: 'x', mentions: [assistant.userId, strangerBorrower.userId] }, 'You can only mention people on this loan'],
      [assistant, { body: 'x', visibility: 'internal', mentions: [borrower.userId] }, 'You can only mention team members in an internal comment'],
      [borrower, { body: 'x', mentions: ['no-such-person'] }, 'You can only mention people on this loan'],
    ];
    for (const [who, body, message] of cases) {
      const refused = await api.as(who).post(url(), body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      const mentions = (body as { mentions: string[] }).mentions;
      expect(refused.json().errors[0]).toEqual({ field: `mentions.${mentions.length - 1}`, message });
    }
    const internalNote = await post(assistant, { body: 'FYI', visibility: 'internal' });
    const reply = await api.as(harbor.owner).post(url(), { body: 'x', parentId: internalNote.id, mentions: [coBorrower.userId] });
    expect(reply.statusCode).toBe(400);
    const edit = await api.as(borrower).patch(`${url()}/${mentioned.id}`, { body: 'Never mind', mentions: [other.owner.userId] });
    expect(edit.statusCode).toBe(400);
    const cleared = await api.as(borrower).patch(`${url()}/${mentioned.id}`, { body: 'Never mind', mentions: [] });
    expect(cleared.json<CommentView>().mentions).toEqual([]);
  });

  it('moves the read cursor forward only, counting unread per audience', async () => {
    const id = await newLoan();
    const bea = await addBorrower(api, id, { name: 'Bea Five' });
    const one = await post(harbor.owner, { body: 'One' }, id);
    const note = await post(assistant, { body: 'Internal one', visibility: 'internal' }, id);
    const two = await post(assistant, { body: 'Two' }, id);
    const mine = await post(bea, { body: 'Mine' }, id);
    expect((await cursorOf(bea, id)).unread).toEqual({ count: 2, firstUnreadId: one.id });
    expect((await cursorOf(harbor.owner, id)).unread).toEqual({ count: 3, firstUnreadId: note.id });

    const put = (who: Person, cursor: number) => api.as(who).put(`/api/loans/${id}/read-cursor`, { cursor });
    const moved = await put(bea, one.cursor);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<ReadCursorView>()).toMatchObject({ cursor: one.cursor, unread: { count: 1, firstUnreadId: two.id } });
    // Back: stays where it is.
    expect((await put(bea, 0)).json<ReadCursorView>().cursor).toBe(one.cursor);
    // Past the end: the end.
    const end = (await put(bea, 2_000_000_000)).json<ReadCursorView>();
    expect(end).toEqual({ cursor: end.latestCursor, latestCursor: end.latestCursor, unread: { count: 0, firstUnreadId: null } });
    // A borrower's cursor is theirs alone, and in the borrowers' sequence: the team's is untouched.
    expect((await cursorOf(harbor.owner, id)).cursor).toBe(0);
    const team = await put(assistant, note.cursor);
    // Past the assistant's note: "Two" is their own, so only the borrower's is left.
    expect(team.json<ReadCursorView>().unread).toEqual({ count: 1, firstUnreadId: mine.id });
    expect((await list(bea, '', id)).unread.count).toBe(0);
  });

  it('pages the threads, newest page first, and filters them by item', async () => {
    const id = await newLoan();
    const [item] = await api.db.select().from(checklistItem).where(eq(checklistItem.loanId, id)).orderBy(asc(checklistItem.position));
    const total = COMMENT_THREADS_PAGE_SIZE + 3;
    for (let i = 1; i <= total; i++) await post(harbor.owner, { body: `Thread ${i}`, ...(i % 10 === 0 ? { itemId: item!.id } : {}) }, id);
    const first = await list(harbor.owner, '', id);
    expect(first.threads).toHaveLength(COMMENT_THREADS_PAGE_SIZE);
    expect(first.threads.at(-1)!.body).toBe(`Thread ${total}`);
    expect(first.threads[0]!.body).toBe('Thread 4');
    const older = await list(harbor.owner, `?before=${first.nextBefore}`, id);
    expect(older.threads.map((t) => t.body)).toEqual(['Thread 1', 'Thread 2', 'Thread 3']);
    expect(older.nextBefore).toBeNull();
    const onItem = await list(harbor.owner, `?itemId=${item!.id}`, id);
    expect(onItem.threads.map((t) => t.body)).toEqual(['Thread 10', 'Thread 20', 'Thread 30']);
    expect(onItem.itemCounts[item!.id]).toBe(3);
  });

  it('refuses bad input with a 4xx naming it, never a 5xx (property-based)', async () => {
    const bad: fc.Arbitrary<unknown> = fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        '\u0000',
        'a\u0000b',
        '\ud800',
        'x'.repeat(COMMENT_MAX_LENGTH + 1),
        '😀'.repeat(COMMENT_MAX_LENGTH),
        null,
        true,
        0,
        -1,
        1.5,
        2 ** 31,
        Number.MAX_VALUE,
        [],
        {},
        [[]],
      ),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const body = fc.record(
      {
        body: fc.oneof(bad, fc.constant('Fine text')),
        visibility: bad,
        itemId: fc.oneof(bad, fc.constant(visibleItem), fc.constant(internalItem), fc.uuid()),
        parentId: fc.oneof(bad, fc.uuid()),
        mentions: fc.oneof(bad, fc.array(fc.oneof(bad, fc.constant(harbor.owner.userId)), { maxLength: 25 })),
        extra: bad,
      },
      { requiredKeys: [] },
    );
    const target = await post(harbor.owner, { body: 'Target' });
    const check = (response: { statusCode: number; body: string }, what: string) => {
      expect(response.statusCode, `${what} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
      if (response.statusCode >= 400) expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
    };
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(harbor.owner, borrower), async (input, who) => {
        const response = await api.as(who).post(url(), input);
        check(response, `POST ${JSON.stringify(input).slice(0, 200)}`);
        if (response.statusCode === 400) expect(response.json().errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 120 },
    );
    await fc.assert(
      fc.asyncProperty(body, async (input) =>
        check(await api.as(harbor.owner).patch(`${url()}/${target.id}`, input), `PATCH ${JSON.stringify(input).slice(0, 200)}`),
      ),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.record({ cursor: bad }, { requiredKeys: [] }), async (input) => {
        const response = await api.as(borrower).put(`/api/loans/${loanId}/read-cursor`, input);
        check(response, `PUT cursor ${JSON.stringify(input)}`);
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.constantFrom('before', 'itemId', 'visibility', 'x'), async (value, key) => {
        const query = `?${key}=${encodeURIComponent(value)}`;
        check(await api.as(borrower).get(`${url()}${query}`), `GET ${query}`);
        check(await api.as(borrower).get(`${url()}/mention-candidates${query}`), `GET candidates ${query}`);
      }),
      { numRuns: 40 },
    );
    // A body as long as allowed is taken whole.
    const longest = await post(harbor.owner, { body: 'y'.repeat(COMMENT_MAX_LENGTH) });
    expect(longest.body).toHaveLength(COMMENT_MAX_LENGTH);
  });
});

describe.each(backends)('the comment rate limit on %s', (backend) => {
  const api = setupApi(backend, { env: { COMMENT_RATE_LIMIT: '3' } });

  it('refuses a person’s fourth comment in a minute with 429 and Retry-After, and nobody else’s', async () => {
    const team = await createTeamWithOwner(api);
    const loanId = (await createLoan(api, team.teamId, team.owner)).id;
    const borrower = await addBorrower(api, loanId);
    const first = await api.as(team.owner).post(`/api/loans/${loanId}/comments`, { body: 'One' });
    expect(first.statusCode).toBe(201);
    expect((await api.as(team.owner).post(`/api/loans/${loanId}/comments`, { body: 'Two' })).statusCode).toBe(201);
    expect((await api.as(team.owner).patch(`/api/loans/${loanId}/comments/${first.json<CommentView>().id}`, { body: 'One!' })).statusCode).toBe(200);
    const refused = await api.as(team.owner).post(`/api/loans/${loanId}/comments`, { body: 'Four' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().code).toBe('rate_limited');
    expect((await api.as(borrower).post(`/api/loans/${loanId}/comments`, { body: 'Mine goes' })).statusCode).toBe(201);
    const listed = (await api.as(team.owner).get(`/api/loans/${loanId}/comments`)).json<CommentListView>();
    expect(listed.threads.map((t) => t.body)).toEqual(['One!', 'Two', 'Mine goes']);
  });
});
