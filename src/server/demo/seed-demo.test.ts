import { createHash } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { documentCounts, ITEM_STATUSES } from '../../shared/domain/checklist-status';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOAN_STAGES, MAIN_STAGES } from '../../shared/domain/loan-stages';
import { WholeLoanSchema, type LoanView, type PipelinePage, type PipelineRow } from '../../shared/schemas/loans';
import type { ChecklistView } from '../../shared/schemas/checklist';
import type { NotificationPage } from '../../shared/schemas/notifications';
import type { MyLoans } from '../../shared/schemas/participants';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { createTeamWithOwner } from '../../test/factories';
import { signIn, signInWithTotp } from '../../test/people';
import { expireDocuments } from '../checklist/expiry';
import type { CommentListView } from '../../shared/schemas/comments';
import {
  activity,
  checklistItem,
  comment,
  documentFile,
  documentVersion,
  job,
  loan,
  loanParticipant,
  loanReadCursor,
  stageChange,
  team,
  user,
} from '../db/schema';
import { PREVIEW_QUEUE } from '../documents/previews';
import { loanInputOf } from '../loans/loan-record';
import { checklistFor, DSCR_TEMPLATE } from '../../shared/domain/checklist-templates';
import { demoChecklist } from './demo-checklist';
import { filesPerVersion } from './demo-documents';
import { demoLoan, prng } from './demo-loans';
import { DEMO_EMAIL_DOMAIN, DEMO_SEED, DemoSeedRefused, seedDemo, type DemoSeedResult } from './seed-demo';

describe('the demo book', () => {
  it('is the same on every run (seeded), for the same day', () => {
    const now = new Date('2026-03-10T15:00:00Z');
    const people = { now, owner: { userId: 'o', name: 'Owner' }, assistant: { userId: 'a', name: 'Assistant' } };
    const book = () => {
      const rng = prng(DEMO_SEED);
      return Array.from({ length: 50 }, (_, i) => demoLoan(rng, i, people));
    };
    expect(JSON.stringify(book())).toBe(JSON.stringify(book()));
  });

  it('gives each loan the same checklist on every run, for the same day', () => {
    const now = new Date('2026-03-10T15:00:00Z');
    const people = { now, owner: { userId: 'o', name: 'Owner' }, assistant: { userId: 'a', name: 'Assistant' } };
    const checklists = () => {
      const rng = prng(DEMO_SEED);
      const checklistRng = prng(7);
      let id = 0;
      const newId = () => `id-${++id}`;
      return Array.from({ length: 40 }, (_, i) => {
        const file = demoLoan(rng, i, people);
        const template = checklistFor(DSCR_TEMPLATE, file.input.purpose, file.input.propertyType);
        return demoChecklist(checklistRng, file, template, template.map(newId), { now, newId, people: { ...people, borrower: null } });
      });
    };
    expect(JSON.stringify(checklists())).toBe(JSON.stringify(checklists()));
  });
});

describe.each(backends)('seed-demo on %s', (backend) => {
  const api = setupApi(backend);
  const now = new Date();
  let seeded: DemoSeedResult;
  const seed = (options: Parameters<typeof seedDemo>[1] = {}) =>
    seedDemo({ db: api.db, auth: api.app.auth, brandName: 'Coverly', files: api.files }, { now, ...options });

  beforeAll(async () => {
    seeded = await seed();
  });

  it('makes the demo team with an owner, an assistant and three borrowers, all at the demo domain', async () => {
    expect(seeded).toMatchObject({ teamName: 'Harbor Lending', loans: 40, replaced: false });
    expect(seeded.owner).toMatchObject({ role: 'owner', name: 'Jordan Hayes', email: `jordan.hayes@${DEMO_EMAIL_DOMAIN}` });
    expect(seeded.assistant).toMatchObject({ role: 'assistant', email: `sam.ortiz@${DEMO_EMAIL_DOMAIN}` });
    expect(seeded.owner.otpauthUri).toMatch(new RegExp(`^otpauth://totp/Coverly%3A.+\\?secret=${seeded.owner.totpSecret}&issuer=Coverly`));
    expect(seeded.borrowers.map((b) => b.name)).toEqual(['Marcus Reed', 'Elena Reed', 'Priya Shah']);
    expect(seeded.borrowers.flatMap((b) => b.loans)).toHaveLength(4);
    const people = await api.db.select({ email: user.email }).from(user);
    expect(people.map((p) => p.email).sort()).toEqual([seeded.owner, seeded.assistant, ...seeded.borrowers].map((p) => p.email).sort());
  });

  it('makes 40 loans, valid per the shared schema, across every stage, with history and activity that match their stage (one creation line naming the assignee)', async () => {
    const rows = await api.db.select().from(loan).where(eq(loan.teamId, seeded.teamId));
    expect(rows).toHaveLength(40);
    for (const row of rows) expect(WholeLoanSchema.safeParse(loanInputOf(row)).error?.issues ?? []).toEqual([]);
    expect(new Set(rows.map((r) => r.stage))).toEqual(new Set(LOAN_STAGES));
    expect(new Set(rows.map((r) => r.propertyType))).toEqual(new Set(['single_family', 'two_to_four', 'five_plus', 'condo', 'short_term_rental']));
    expect(rows.filter((r) => r.archivedAt)).toHaveLength(2);
    expect(new Set(rows.map((r) => r.assigneeId))).toEqual(new Set([null, expect.any(String), expect.any(String)]));

    const changes = await api.db.select().from(stageChange).orderBy(asc(stageChange.id));
    const feed = await api.db.select().from(activity).orderBy(asc(activity.id));
    for (const row of rows) {
      const mine = changes.filter((c) => c.loanId === row.id);
      expect(mine[0]).toMatchObject({ fromStage: null, toStage: 'lead' });
      expect(mine.at(-1)?.toStage).toBe(row.stage);
      expect(mine.at(-1)?.at.getTime()).toBe(row.stageEnteredAt.getTime());
      for (let i = 1; i < mine.length; i++) expect(mine[i]!.fromStage).toBe(mine[i - 1]!.toStage);
      if (row.stage === 'withdrawn' || row.stage === 'declined') {
        expect(mine.at(-1)?.note).toBeTruthy();
        expect(row.leftFromStage).toBe(mine.at(-1)?.fromStage);
        expect(MAIN_STAGES).toContain(row.leftFromStage);
      }
      const events = feed.filter((a) => a.loanId === row.id);
      expect(events[0]?.kind).toBe('loan.created');
      // Numbered as the activity log numbers them in use: 1…n in time order, the shared rows apart, the loan's counters at the last.
      expect(events.map((a) => a.seq)).toEqual(events.map((_, i) => i + 1));
      const shared = events.filter((a) => a.visibility === 'shared');
      expect(shared.map((a) => a.sharedSeq)).toEqual(shared.map((_, i) => i + 1));
      expect([row.activitySeq, row.sharedActivitySeq]).toEqual([events.length, shared.length]);
      // The assignee at creation is part of the creation line, not a 'loan.assigned' of its own.
      expect((events[0]?.data as { assignee?: { id: string } }).assignee?.id ?? null).toBe(row.assigneeId);
      expect(events.filter((a) => a.kind === 'loan.assigned')).toEqual([]);
      expect(events.filter((a) => a.kind === 'stage.changed')).toHaveLength(mine.length - 1);
      expect(Math.max(...events.map((a) => a.at.getTime()))).toBe(row.lastActivityAt.getTime());
      expect(row.lastActivityAt.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    // Activity ids rise with time, as they do in use.
    expect(feed.map((a) => a.at.getTime())).toEqual([...feed.map((a) => a.at.getTime())].sort((a, b) => a - b));

    const today = now.toISOString().slice(0, 10);
    const open = rows.filter((r) => !r.archivedAt && MAIN_STAGES.indexOf(r.stage as never) >= 0 && r.stage !== 'funded');
    expect(open.some((r) => r.targetClosingDate !== null && r.targetClosingDate < today)).toBe(true);
    expect(open.some((r) => r.targetClosingDate !== null && r.targetClosingDate >= today)).toBe(true);
    const participants = await api.db.select().from(loanParticipant);
    expect(participants).toHaveLength(4);
  });

  it('gives every loan its checklist: items in every status, each with the versions and activity its actions leave', async () => {
    const loans = await api.db.select().from(loan);
    const items = await api.db.select().from(checklistItem);
    const versions = await api.db.select().from(documentVersion).orderBy(asc(documentVersion.number));
    const feed = await api.db.select().from(activity).orderBy(asc(activity.seq));
    expect(new Set(items.map((item) => item.loanId))).toEqual(new Set(loans.map((row) => row.id)));
    expect(new Set(items.map((item) => item.status))).toEqual(new Set(ITEM_STATUSES));
    const notApplicable = items.filter((item) => item.status === 'not_applicable');
    expect(new Set(notApplicable.map((item) => item.notApplicableConfirmed))).toEqual(new Set([true, false]));
    expect(items.filter((item) => loans.find((row) => row.id === item.loanId)!.stage === 'lead').every((item) => item.status === 'requested')).toBe(true);
    // Clear to close and after: every item settled.
    const cleared = loans.filter((row) => row.stage === 'clear_to_close' || row.stage === 'closing_scheduled' || row.stage === 'funded');
    for (const row of cleared) {
      const open = items.filter((item) => item.loanId === row.id && !['approved', 'waived', 'not_applicable'].includes(item.status));
      expect(open.map((item) => [item.key, item.status])).toEqual([]);
    }

    for (const item of items) {
      const mine = versions.filter((version) => version.itemId === item.id);
      const newest = mine.at(-1);
      expect(mine.map((version) => version.number)).toEqual(mine.map((_version, i) => i + 1));
      // Every version but the newest was sent back; the newest's review is what the tag says.
      for (const older of mine.slice(0, -1)) expect(older).toMatchObject({ review: 'needs_revision', reviewReason: expect.any(String) });
      const expected = { uploaded: 'pending', in_review: 'in_review', needs_revision: 'needs_revision', approved: 'approved', expired: 'approved' } as const;
      if (item.status in expected) expect(newest?.review, item.label).toBe(expected[item.status as keyof typeof expected]);
      if (item.status === 'requested' || item.status === 'not_applicable') expect(mine).toEqual([]);
      if (item.status === 'needs_revision') expect(item.reason).toBe(newest!.reviewReason);
      // A reason belongs to the version it was given for: a version sent back earlier leaves none on the item's newer one.
      if (item.status === 'uploaded' || item.status === 'in_review' || item.status === 'approved' || item.status === 'requested')
        expect(item.reason, item.label).toBeNull();
      if (item.status === 'approved' || item.status === 'expired') {
        expect(item.documentDate).toBe(newest!.documentDate);
        expect(item.documentDate).not.toBeNull();
      }
      if (item.status === 'waived' || item.status === 'not_applicable') expect(item.reason).toBeTruthy();
      // The activity says the same: an upload per version, the tag's own event last.
      // (The item's own events: comments about it are the discussion's, checked below.)
      const events = feed.filter((a) => (a.data as { itemId?: string }).itemId === item.id && !a.kind.startsWith('comment.'));
      expect(events.filter((a) => a.kind === 'document.uploaded').map((a) => (a.data as { versionNumber: number }).versionNumber)).toEqual(
        mine.map((v) => v.number),
      );
      const lastKind = { requested: undefined, uploaded: 'document.uploaded', in_review: 'document.review_started', approved: 'document.approved' } as Record<
        string,
        string | undefined
      >;
      if (item.status in lastKind) expect(events.at(-1)?.kind, item.label).toBe(lastKind[item.status]);
      if (item.status === 'expired') expect(events.at(-1)?.kind).toBe('checklist.item_expired');
      for (const event of events) expect(event.visibility).toBe(item.borrowerVisible ? 'shared' : 'internal');
    }
    // A borrower acts on their loan only once they have joined it.
    for (const joined of feed.filter((a) => a.kind === 'participant.joined' && (a.data as { role?: string }).role === 'borrower')) {
      const theirs = feed.filter((a) => a.loanId === joined.loanId && a.actorId === joined.actorId && a.kind !== 'participant.joined');
      expect(theirs.length).toBeGreaterThan(0);
      for (const later of theirs) expect(later.at.getTime()).toBeGreaterThan(joined.at.getTime());
    }
    expect(versions.some((version) => version.number > 1)).toBe(true);
    expect(new Set(versions.map((version) => version.uploadedAs))).toEqual(new Set(['team', 'borrower', 'third_party']));
    // Nothing approved has run out by the rules: the sweep finds nothing to do.
    expect(await expireDocuments(api.db, now.toISOString().slice(0, 10))).toEqual([]);
    expect(seeded.documents).toMatchObject({ items: items.length, versions: versions.length });
  });

  it('gives every loan past its first step a discussion: threads and replies, shared and internal, on items, with mentions, an edit and a deletion', async () => {
    const loans = await api.db.select().from(loan);
    const comments = await api.db.select().from(comment);
    const items = await api.db.select().from(checklistItem);
    const feed = await api.db.select().from(activity);
    const changes = await api.db.select().from(stageChange);
    expect(seeded.conversations).toEqual({ comments: comments.length, internal: comments.filter((row) => row.visibility === 'internal').length });
    for (const row of loans) {
      const moved = changes.filter((change) => change.loanId === row.id).length > 1;
      const mine = comments.filter((c) => c.loanId === row.id);
      if (!moved) expect(mine, row.stage).toEqual([]);
      else expect(new Set(mine.map((c) => c.visibility)), row.stage).toEqual(new Set(['shared', 'internal']));
    }
    for (const row of comments) {
      // Internal threads never take a number in the borrowers' sequence.
      if (row.visibility === 'internal') expect(row.sharedActivitySeq).toBeNull();
      // Each comment's cursors are those of the row that posted it.
      const posted = feed.filter((a) => a.kind === 'comment.posted' && (a.data as { commentId: string }).commentId === row.id);
      expect(posted).toHaveLength(1);
      expect(posted[0]).toMatchObject({
        loanId: row.loanId,
        seq: row.activitySeq,
        sharedSeq: row.sharedActivitySeq,
        visibility: row.visibility,
        actorId: row.authorId,
      });
      expect(posted[0]!.data).toMatchObject({ parentId: row.parentId, itemId: row.itemId, mentions: row.deletedAt ? expect.any(Array) : row.mentions });
      expect(posted[0]!.at.getTime()).toBe(row.createdAt.getTime());
      if (row.parentId) {
        const parent = comments.find((c) => c.id === row.parentId)!;
        expect([parent.parentId, parent.visibility, parent.itemId, parent.loanId]).toEqual([null, row.visibility, row.itemId, row.loanId]);
        expect(parent.activitySeq).toBeLessThan(row.activitySeq);
      }
      // A shared comment is only about an item its borrowers see.
      if (row.itemId) {
        const item = items.find((i) => i.id === row.itemId)!;
        expect(item.loanId).toBe(row.loanId);
        if (row.visibility === 'shared') expect(item.borrowerVisible).toBe(true);
      }
    }
    expect(comments.some((c) => c.parentId !== null)).toBe(true);
    expect(comments.some((c) => c.itemId !== null && c.visibility === 'shared')).toBe(true);
    expect(comments.some((c) => c.itemId !== null && c.visibility === 'internal')).toBe(true);
    expect(comments.some((c) => c.mentions.length > 0 && c.visibility === 'internal')).toBe(true);
    expect(comments.some((c) => c.mentions.length > 0 && c.visibility === 'shared')).toBe(true);
    const edited = comments.filter((c) => c.editedAt);
    expect(edited.length).toBeGreaterThan(0);
    for (const row of edited) {
      const edit = feed.find((a) => a.kind === 'comment.edited' && (a.data as { commentId: string }).commentId === row.id)!;
      expect((edit.data as { previousBody: string }).previousBody).not.toBe(row.body);
    }
    const deleted = comments.filter((c) => c.deletedAt);
    expect(deleted.length).toBeGreaterThan(0);
    for (const row of deleted) expect([row.body, row.mentions]).toEqual(['', []]);
    expect(deleted.some((row) => comments.some((reply) => reply.parentId === row.id && !reply.deletedAt))).toBe(true);
    // Each demo person has read some loans to the end and left some comments unread.
    const cursors = await api.db.select().from(loanReadCursor);
    expect(cursors.length).toBeGreaterThan(0);
  });

  it('lists the demo discussions through the comments API, a borrower’s without anything internal, with some unread', async () => {
    const owner = await signInWithTotp(api.app, seeded.owner.email, seeded.owner.totpSecret, seeded.owner.password);
    const marcus = seeded.borrowers[0]!;
    const { cookie } = await signIn(api.app, marcus.email, marcus.password);
    const loanId = marcus.loans[0]!.loanId;
    const comments = await api.db.select().from(comment).where(eq(comment.loanId, loanId));
    const threadsOf = (view: CommentListView) => view.threads.flatMap((thread) => [thread, ...thread.replies]);

    const team = await api.as(owner).get(`/api/loans/${loanId}/comments`);
    expect(team.statusCode).toBe(200);
    const teamView = team.json<CommentListView>();
    expect(
      threadsOf(teamView)
        .map((c) => c.id)
        .sort(),
    ).toEqual(comments.map((c) => c.id).sort());
    expect(threadsOf(teamView).some((c) => c.visibility === 'internal')).toBe(true);
    expect(threadsOf(teamView).some((c) => c.editedAt !== null)).toBe(true);
    expect(threadsOf(teamView).some((c) => c.deletedAt !== null && c.body === '')).toBe(true);

    const borrower = await api.as(cookie).get(`/api/loans/${loanId}/comments`);
    expect(borrower.statusCode).toBe(200);
    const borrowerView = borrower.json<CommentListView>();
    const shared = comments.filter((c) => c.visibility === 'shared');
    expect(
      threadsOf(borrowerView)
        .map((c) => c.id)
        .sort(),
    ).toEqual(shared.map((c) => c.id).sort());
    expect(JSON.stringify(borrowerView)).not.toMatch(/6 months of reserves|HELOC/);
    // The borrower left two comments unread; the first unread is one of the team's, after their cursor.
    expect(borrowerView.unread.count).toBe(2);
    const first = shared.find((c) => c.id === borrowerView.unread.firstUnreadId)!;
    expect(first.authorId).not.toBeNull();
    expect(first.sharedActivitySeq).toBeGreaterThan(borrowerView.cursor);
    expect(borrowerView.latestCursor).toBe((await api.db.select().from(loan).where(eq(loan.id, loanId)))[0]!.sharedActivitySeq);
  });

  it('stores every version’s files encrypted, and they decrypt to what their rows say', async () => {
    const files = await api.db.select().from(documentFile);
    const versions = await api.db.select().from(documentVersion);
    const items = await api.db.select().from(checklistItem);
    expect(seeded.documents.files).toBe(files.length);
    for (const version of versions) {
      const key = items.find((item) => item.id === version.itemId)!.key;
      expect(files.filter((file) => file.versionId === version.id).map((file) => file.position)).toEqual(
        Array.from({ length: filesPerVersion(key) }, (_v, i) => i + 1),
      );
    }
    expect(new Set(files.map((file) => file.contentType))).toEqual(new Set(['application/pdf', 'image/jpeg', 'image/tiff']));
    const magic: Record<string, Buffer> = {
      'application/pdf': Buffer.from('%PDF'),
      'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
      'image/tiff': Buffer.from('II*\0', 'latin1'),
    };
    for (const file of files) {
      const chunks: Buffer[] = [];
      for await (const chunk of await api.files.open(file)) chunks.push(chunk as Buffer);
      const plain = Buffer.concat(chunks);
      expect(plain.length).toBe(file.size);
      expect(createHash('sha256').update(plain).digest('hex')).toBe(file.sha256);
      expect(plain.subarray(0, magic[file.contentType]!.length)).toEqual(magic[file.contentType]);
    }
    // The scans' previews wait for a server's worker.
    const jobs = await api.db.select().from(job);
    expect(jobs.filter((row) => row.queue === PREVIEW_QUEUE)).toHaveLength(files.filter((file) => file.contentType === 'image/tiff').length);
  });

  it('shows a re-uploaded item without the reason its earlier version was sent back for, which that version keeps', async () => {
    const cookie = await signInWithTotp(api.app, seeded.owner.email, seeded.owner.totpSecret, seeded.owner.password);
    const items = await api.db.select().from(checklistItem);
    const versions = await api.db.select().from(documentVersion);
    const resent = items.filter(
      (item) => (item.status === 'uploaded' || item.status === 'in_review') && versions.some((v) => v.itemId === item.id && v.number === 2),
    );
    expect(resent.length).toBeGreaterThan(0);
    for (const item of resent) {
      const checklist = await api.as(cookie).get(`/api/loans/${item.loanId}/checklist`);
      expect(checklist.statusCode).toBe(200);
      expect(checklist.json<{ items: { id: string; reason: string | null }[] }>().items.find((row) => row.id === item.id)?.reason, item.label).toBeNull();
      const history = await api.as(cookie).get(`/api/loans/${item.loanId}/checklist/items/${item.id}/versions`);
      const [newest, earlier] = history.json<{ versions: { number: number; review: string; reviewReason: string | null }[] }>().versions;
      expect(newest).toMatchObject({ number: 2, reviewReason: null });
      expect(earlier).toMatchObject({ number: 1, review: 'needs_revision', reviewReason: expect.any(String) });
    }
  });

  it('prints an authenticator key whose code signs the owner in, who sees the pipeline', async () => {
    const cookie = await signInWithTotp(api.app, seeded.owner.email, seeded.owner.totpSecret, seeded.owner.password);
    const page = await api.as(cookie).get(`/api/teams/${seeded.teamId}/loans`);
    expect(page.statusCode).toBe(200);
    const body = page.json<PipelinePage>();
    const open = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(loan)
      .where(sql`${loan.archivedAt} is null and ${loan.stage} not in ('funded', 'withdrawn', 'declined')`);
    expect(body.total).toBe(open[0]?.n);
    expect(body.rows.length).toBeGreaterThan(0);

    const assistant = await signInWithTotp(api.app, seeded.assistant.email, seeded.assistant.totpSecret, seeded.assistant.password);
    expect((await api.as(assistant).get(`/api/teams/${seeded.teamId}/loans?status=closed`)).json<PipelinePage>().total).toBeGreaterThan(0);
  });

  it('lets a borrower sign in with the printed password and see their own loan only', async () => {
    const [marcus, , priya] = seeded.borrowers;
    const { cookie, body } = await signIn(api.app, marcus!.email, marcus!.password);
    expect(body.twoFactorRedirect).toBeFalsy();
    const own = await api.as(cookie).get(`/api/loans/${marcus!.loans[0]!.loanId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json<LoanView>()).toMatchObject({ viewer: 'borrower', borrowerName: 'Marcus Reed' });
    expect((await api.as(cookie).get(`/api/loans/${priya!.loans[0]!.loanId}`)).statusCode).toBe(404);
  });

  it('shows true numbers from the first second: every loan’s pipeline row, board card and page agree, and the bell counts what the rows call unread', async () => {
    const owner = await signInWithTotp(api.app, seeded.owner.email, seeded.owner.totpSecret, seeded.owner.password);
    const assistant = await signInWithTotp(api.app, seeded.assistant.email, seeded.assistant.totpSecret, seeded.assistant.password);
    const get = async <T>(cookie: string, url: string): Promise<T> => {
      const response = await api.as(cookie).get(url);
      expect(response.statusCode, url).toBe(200);
      return response.json<T>();
    };
    const everyRow = async (cookie: string, query = '') => {
      const rows: PipelineRow[] = [];
      for (const status of ['open', 'funded', 'closed', 'archived'])
        rows.push(...(await get<PipelinePage>(cookie, `/api/teams/${seeded.teamId}/loans?status=${status}&size=200${query}`)).rows);
      return new Map(rows.map((row) => [row.id, row]));
    };
    const items = await api.db.select().from(checklistItem);

    for (const cookie of [owner, assistant]) {
      const list = await everyRow(cookie);
      expect(list.size).toBe(seeded.loans);
      // The board: a column (one query) per stage, as the web app asks for it.
      const board = new Map<string, PipelineRow>();
      for (const stage of LOAN_STAGES) for (const [id, row] of await everyRow(cookie, `&stage=${stage}`)) board.set(id, row);
      expect(board.size).toBe(seeded.loans);
      let unreadOnRows = 0;
      for (const [loanId, row] of list) {
        const counts = documentCounts(items.filter((item) => item.loanId === loanId));
        const checklist = await get<ChecklistView>(cookie, `/api/loans/${loanId}/checklist`);
        const page = await get<LoanView & { viewer: 'team' }>(cookie, `/api/loans/${loanId}`);
        const comments = await get<CommentListView>(cookie, `/api/loans/${loanId}/comments`);
        const card = board.get(loanId)!;
        const said = (of: PipelineRow) => [of.outstandingDocuments, of.requiredDocuments, of.approvedDocuments, of.progress, of.unreadComments];
        expect(counts.required, `loan ${loanId} has a checklist`).toBeGreaterThan(0);
        expect(said(row), `the pipeline row of ${loanId}`).toEqual([
          checklist.outstandingRequired,
          counts.required,
          counts.approved,
          page.progress,
          comments.unread.count,
        ]);
        expect(said(card), `the board card of ${loanId}`).toEqual(said(row));
        expect(checklist.outstandingRequired).toBe(counts.outstanding);
        unreadOnRows += row.unreadComments;
      }
      // The bell and the inbox count the same comments the rows call unread.
      const bell = await get<{ unread: number }>(cookie, '/api/me/notifications/unread-count');
      const inbox = await get<NotificationPage>(cookie, '/api/me/notifications?limit=100');
      expect(unreadOnRows).toBeGreaterThan(0);
      expect(bell.unread).toBe(unreadOnRows);
      expect(inbox.unread).toBe(unreadOnRows);
      expect(inbox.notifications.filter((n) => n.readAt === null).length).toBe(Math.min(unreadOnRows, inbox.notifications.length));
    }

    for (const borrower of seeded.borrowers) {
      const { cookie } = await signIn(api.app, borrower.email, borrower.password);
      const mine = await get<MyLoans>(cookie, '/api/my-loans');
      let unreadOnCards = 0;
      for (const card of mine.loans) {
        const comments = await get<CommentListView>(cookie, `/api/loans/${card.id}/comments`);
        expect(card.unreadComments, `${borrower.name}’s card of ${card.id}`).toBe(comments.unread.count);
        unreadOnCards += card.unreadComments;
      }
      expect((await get<{ unread: number }>(cookie, '/api/me/notifications/unread-count')).unread, borrower.name).toBe(unreadOnCards);
    }
  }, 180_000);

  it('resets the demo when run again: one demo team, the same number of loans, new passwords', async () => {
    const again = await seed();
    expect(again.replaced).toBe(true);
    expect(again.owner.password).not.toBe(seeded.owner.password);
    expect(await api.db.select({ id: team.id }).from(team)).toEqual([{ id: again.teamId }]);
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(loan))[0]?.n).toBe(40);
    const stale = await api.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: seeded.owner.email, password: seeded.owner.password },
    });
    expect(stale.statusCode).toBe(401);
    seeded = again;
  });

  it('refuses a database with a team that is not the demo’s, unless forced', async () => {
    const real = await createTeamWithOwner(api, { name: 'Real Lending' });
    await expect(seed()).rejects.toThrow(DemoSeedRefused);
    await expect(seed()).rejects.toThrow(/1 team that is not the demo's/);
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(loan))[0]?.n).toBe(40);

    const forced = await seed({ force: true, loans: 120 });
    expect(forced.loans).toBe(120);
    const teams = await api.db.select({ id: team.id }).from(team);
    expect(teams.map((t) => t.id).sort()).toEqual([real.teamId, forced.teamId].sort());
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(loan))[0]?.n).toBe(120);
  });
});
