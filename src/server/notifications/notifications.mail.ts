import { noticePaths } from '../../shared/domain/notifications';
import { formatPropertyAddress } from '../../shared/domain/loan-fields';
import type { LoanRow } from '../db/schema';
import type { MailBrand } from '../platform/mail/mail-jobs';
import type { NoticeMail } from './notify';

/** What an inbox row quotes of a comment: its first 140 characters on one line. */
export function commentSnippet(body: string, max = 140): string {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

export interface DigestComment {
  id: string;
  body: string;
  visibility: 'shared' | 'internal';
  authorName: string;
  /** The item it is attached to, when the reader may see that item. */
  itemLabel: string | null;
}

/**
 * The comments a person has not seen on one loan, in one mail: each with who
 * wrote it, what it is attached to, its text as written (plain text; the HTML
 * part escapes it) and the link straight to it.
 */
export function commentDigestMail(
  to: { name: string },
  loan: Pick<LoanRow, 'id' | 'propertyStreet' | 'propertyUnit' | 'propertyCity' | 'propertyState' | 'propertyZip'>,
  comments: DigestComment[],
  { publicUrl, brand, audience }: { publicUrl: string; brand: MailBrand; audience: 'team' | 'borrowers' },
): NoticeMail {
  const place = formatPropertyAddress(loan);
  const count = comments.length === 1 ? 'a new comment' : `${comments.length} new comments`;
  const paragraphs = [
    `Hi ${to.name},`,
    audience === 'team'
      ? `There ${comments.length === 1 ? 'is' : 'are'} ${count} on the loan file for ${place}:`
      : `${brand.name} and the people on your loan for ${place} left ${count}:`,
    ...comments.map((c) => {
      const where = c.itemLabel ? ` on ${c.itemLabel}` : '';
      const internal = c.visibility === 'internal' ? ' (internal note)' : '';
      return `${c.authorName}${where}${internal}:\n${c.body}\n${publicUrl}${noticePaths.comment(loan.id, c.id)}`;
    }),
  ];
  return {
    subject: `${brand.name}: ${count} on ${loan.propertyStreet}`,
    paragraphs,
    brand,
  };
}
