import { sql } from 'drizzle-orm';
import { AppError } from '../../shared/errors';
import type { Config } from '../config';
import type { Db } from '../db/client';

/** Who is uploading, as the quota counts them: a signed-in person, or one upload link. */
export type QuotaHolder = { kind: 'user'; userId: string } | { kind: 'link'; linkId: string };

/** The window a person's stored bytes are counted over. */
const PERSON_WINDOW = sql`interval '24 hours'`;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * Refuses a new upload that would take its uploader past what they may hold
 * (config.uploadQuota): unfinished uploads at once, and bytes, counted as the
 * sizes announced in their unfinished uploads plus the files of the versions
 * they made (a person's over the last 24 hours, a link's ever). Runs inside
 * the upload's transaction under a lock on the uploader, so starts sent at
 * the same moment are counted one after another and cannot pass it together.
 * A refusal is a 429 naming the limit and what frees it.
 */
export async function assertWithinUploadQuota(tx: Db, quota: Config['uploadQuota'], holder: QuotaHolder, announcedBytes: number): Promise<void> {
  const key = holder.kind === 'user' ? `user:${holder.userId}` : `link:${holder.linkId}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`coverly.upload-quota:${key}`}))`);
  const uploads = holder.kind === 'user' ? sql`u.created_by = ${holder.userId} and u.link_id is null` : sql`u.link_id = ${holder.linkId}`;
  const versions =
    holder.kind === 'user'
      ? sql`v.uploaded_by = ${holder.userId} and v.uploaded_by_link is null and v.created_at > now() - ${PERSON_WINDOW}`
      : sql`v.uploaded_by_link = ${holder.linkId}`;
  const result = (await tx.execute(sql`
    select
      (select count(*)::int from document_upload u where ${uploads} and u.expires_at > now()) as open,
      (select coalesce(sum((f.value->>'size')::bigint), 0)::bigint
         from document_upload u, jsonb_array_elements(u.files) f where ${uploads} and u.expires_at > now()) as announced,
      (select coalesce(sum(df.size), 0)::bigint
         from document_version v join document_file df on df.version_id = v.id where ${versions}) as stored
  `)) as unknown as { rows: { open: number; announced: string | number; stored: string | number }[] };
  const row = result.rows[0]!;
  const open = Number(row.open);
  const held = Number(row.announced) + Number(row.stored);

  const maxOpen = holder.kind === 'user' ? quota.openPerPerson : quota.openPerLink;
  if (open >= maxOpen) {
    throw new AppError(
      'rate_limited',
      holder.kind === 'user'
        ? `You have ${open} uploads not yet finished, the most one person may have at once: finish or cancel one, then start this one`
        : `This link has ${open} uploads not yet finished, the most it may have at once: finish or cancel one, then start this one`,
      undefined,
      { retryAfterSeconds: 60 },
    );
  }
  const maxBytes = holder.kind === 'user' ? quota.bytesPerPersonPerDay : quota.bytesPerLink;
  if (held + announcedBytes > maxBytes) {
    throw new AppError(
      'rate_limited',
      holder.kind === 'user'
        ? `These files would take your uploads past ${megabytes(maxBytes)} in 24 hours (${megabytes(held)} so far): send them later, or ask the team to raise the limit`
        : `These files would take this link's uploads past ${megabytes(maxBytes)} (${megabytes(held)} so far): ask the team for another link`,
      undefined,
      { retryAfterSeconds: holder.kind === 'user' ? 3600 : 86_400 },
    );
  }
}
