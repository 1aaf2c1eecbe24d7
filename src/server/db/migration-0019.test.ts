import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupApi } from '../../test/api';
import { backends } from '../../test/databases';
import { addAssistant, addBorrower, createLoan, createTeamWithOwner, type Person, type Team } from '../../test/factories';
import { activity, job, notification } from './schema';
import { migrationsFolder } from './client';

/** Migration 0019's statements, as the migrator runs them. */
const statements = readFileSync(path.join(migrationsFolder, '0019_notification_audience.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter(Boolean);

/**
 * Migration 0019 on rows written before it (issue 22): the rows are made by
 * today's code, then put back as 0018 left them (no audience, no comment id,
 * the comment's text in the row, a deleted comment's earlier text in the
 * activity, a sent digest's text in the outbox), and its statements run again.
 */
describe.each(backends)('migration 0019 on the rows written before it, on %s', (backend) => {
  const api = setupApi(backend);
  let harbor: Team;
  let asha: Person;
  let dana: Person;
  let loanId: string;
  const ids: Record<'internal' | 'shared' | 'deleted', string> = { internal: '', shared: '', deleted: '' };

  beforeAll(async () => {
    harbor = await createTeamWithOwner(api, { name: 'Harbor Lending', owner: { name: 'Owen Owner' } });
    asha = await addAssistant(api, harbor.teamId, { name: 'Asha Assistant' });
    loanId = (await createLoan(api, harbor.teamId, harbor.owner, { propertyStreet: '12 Pier Road' })).id;
    dana = await addBorrower(api, loanId, { name: 'Dana Borrower' });
    const post = async (body: object) => {
      const response = await api.as(harbor.owner).post(`/api/loans/${loanId}/comments`, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>().id;
    };
    ids.internal = await post({ body: 'Internal: DSCR is 1.05', visibility: 'internal', mentions: [asha.userId] });
    ids.shared = await post({ body: 'Dana, the lease please', mentions: [dana.userId] });
    ids.deleted = await post({ body: 'Account 4417 0093', mentions: [dana.userId] });
    expect((await api.as(harbor.owner).patch(`/api/loans/${loanId}/comments/${ids.deleted}`, { body: 'Account 4417 0094' })).statusCode).toBe(200);
    expect((await api.as(harbor.owner).delete(`/api/loans/${loanId}/comments/${ids.deleted}`)).statusCode).toBe(204);
    const moved = await api.as(harbor.owner).post(`/api/loans/${loanId}/stage`, { from: 'lead', to: 'application' });
    expect(moved.statusCode, moved.body).toBe(200);

    // Back to 0018: the columns and constraints gone, the texts where 0018's code kept them.
    for (const statement of [
      `alter table notification drop constraint notification_loan_audience_check`,
      `alter table notification drop constraint notification_audience_check`,
      `drop index notification_comment_idx`,
      `alter table notification drop column comment_id`,
      `alter table notification drop column audience`,
      `update notification set data = data || jsonb_build_object('body', 'Internal: DSCR is 1.05') where data ->> 'commentId' = '${ids.internal}'`,
      `update notification set data = data || jsonb_build_object('body', 'Account 4417 0094') where data ->> 'commentId' = '${ids.deleted}'`,
      `update activity set data = data || '{"previousBody": "Account 4417 0093", "previousMentions": ["${dana.userId}"]}'::jsonb
        where kind = 'comment.edited' and data ->> 'commentId' = '${ids.deleted}'`,
      `update activity set data = data || '{"mentions": ["${dana.userId}"]}'::jsonb where kind = 'comment.posted' and data ->> 'commentId' = '${ids.deleted}'`,
    ])
      await api.db.execute(sql.raw(statement));
    await api.db.insert(job).values([
      // A digest sent before (done, its text kept until pruned), and one still waiting that quotes the deleted comment.
      {
        queue: 'mail.send',
        status: 'done',
        payload: { to: dana.email, subject: 'Sent digest', text: `Dana Borrower's lease\n/app/loans/${loanId}#comment-${ids.shared}\n` },
      },
      { queue: 'mail.send', payload: { to: dana.email, subject: 'Waiting digest', text: `Account 4417 0094\n/app/loans/${loanId}#comment-${ids.deleted}\n` } },
      { queue: 'mail.send', payload: { to: dana.email, subject: 'Another mail', text: 'Your loan moved' } },
    ]);
    for (const statement of statements) await api.db.execute(sql.raw(statement));
  });

  const rowsOf = (who: Person) => api.db.select().from(notification).where(eq(notification.userId, who.userId));

  it('gives each row its audience: a comment’s from its visibility, the borrowers’ kinds shared, and links the row to its comment without its text', async () => {
    const ashas = await rowsOf(asha);
    expect(ashas.map((row) => [row.kind, row.audience, row.commentId])).toEqual([['mention', 'team', ids.internal]]);
    const danas = await rowsOf(dana);
    expect(danas.map((row) => [row.kind, row.audience, row.commentId]).sort()).toEqual(
      [
        ['mention', 'shared', ids.shared],
        ['mention', 'shared', ids.deleted],
        ['stage_change', 'shared', null],
      ].sort(),
    );
    expect(JSON.stringify([...ashas, ...danas])).not.toMatch(/DSCR|4417/);
    // Read through the inbox: the internal note is Asha's, the deleted comment says so.
    const inbox = (await api.as(dana).get('/api/me/notifications')).json<{ notifications: { path: string; body: string | null }[] }>();
    expect(inbox.notifications.find((n) => n.path.endsWith(ids.deleted))?.body).toBe('This comment was deleted.');
    expect(inbox.notifications.find((n) => n.path.endsWith(ids.shared))?.body).toBe('Dana, the lease please');
  });

  it('forgets what a comment deleted before it said and whom it named, and what the digests mailed of comments', async () => {
    const rows = await api.db
      .select({ kind: activity.kind, data: activity.data })
      .from(activity)
      .where(and(eq(activity.loanId, loanId), sql`${activity.data} ->> 'commentId' = ${ids.deleted}`));
    expect(rows.map((row) => row.kind).sort()).toEqual(['comment.deleted', 'comment.edited', 'comment.posted']);
    expect(JSON.stringify(rows)).not.toContain('4417');
    expect(rows.find((row) => row.kind === 'comment.posted')?.data.mentions).toEqual([]);
    const mails = await api.db.select().from(job).where(eq(job.queue, 'mail.send'));
    const bySubject = (subject: string) => mails.find((mail) => (mail.payload as { subject: string }).subject === subject)!;
    expect(bySubject('Sent digest').payload).toEqual({ to: dana.email, subject: 'Sent digest', $cleared: ['text', 'html'] });
    expect(bySubject('Waiting digest')).toMatchObject({ status: 'done', payload: { $cleared: ['text', 'html'] } });
    expect(bySubject('Another mail')).toMatchObject({ status: 'pending', payload: { text: 'Your loan moved' } });
    expect(JSON.stringify(mails)).not.toContain('4417');
  });
});
