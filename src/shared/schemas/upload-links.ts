import { z } from 'zod';
import { TEAM_ON_LOAN, type LoanActionTable } from '../domain/access';
import { ItemIdParamsSchema } from './checklist';
import { text } from './text';

/**
 * Third parties' upload links: the team sends and withdraws them. Using one
 * needs no role on the loan: its routes have the `upload-link` access.
 */
export const UPLOAD_LINK_ACTIONS = {
  'manage-upload-links': TEAM_ON_LOAN,
} as const satisfies LoanActionTable;

/** How long a link works, in days, unless the team says otherwise; and the longest it may. */
export const UPLOAD_LINK_DEFAULT_DAYS = 7;
export const UPLOAD_LINK_MAX_DAYS = 30;

/** POST …/items/:itemId/upload-links: whom to send a link to (a title company, an insurance agent, an appraiser). */
export const SendUploadLinkSchema = z.strictObject({
  name: text('Name').trim().min(1, { error: 'Give the name of the person or company' }).max(120, { error: 'Name must be at most 120 characters' }),
  email: text('E-mail')
    .trim()
    .min(1, { error: 'Enter an e-mail address' })
    .max(254, { error: 'E-mail must be at most 254 characters' })
    .pipe(z.email({ error: 'Enter a valid e-mail address' })),
  expiresInDays: z
    .number({ error: 'expiresInDays must be a number of days' })
    .int({ error: 'The link works for whole days' })
    .min(1, { error: 'The link must work for at least 1 day' })
    .max(UPLOAD_LINK_MAX_DAYS, { error: `The link may work for at most ${UPLOAD_LINK_MAX_DAYS} days` })
    .default(UPLOAD_LINK_DEFAULT_DAYS),
});
export type SendUploadLink = z.input<typeof SendUploadLinkSchema>;
export type SendUploadLinkFields = z.output<typeof SendUploadLinkSchema>;

export const UploadLinkParamsSchema = ItemIdParamsSchema.extend({
  linkId: z.uuid({ error: 'Not an upload link id' }).transform((id) => id.toLowerCase()),
});

/** A link's token: 32 random bytes, base64url (43 characters). Anything else names no link. */
export const UploadLinkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

export const LinkUploadParamsSchema = z.object({ uploadId: z.uuid().transform((id) => id.toLowerCase()) });
export const LinkUploadFileParamsSchema = LinkUploadParamsSchema.extend({
  position: z.coerce.number({ error: 'The file number must be a number' }).int({ error: 'The file number must be a whole number' }).min(1),
});

export const UPLOAD_LINK_STATES = ['active', 'used', 'expired', 'revoked'] as const;
export type UploadLinkState = (typeof UPLOAD_LINK_STATES)[number];

/** A link as the team lists it: never its token (only its hash is kept). */
export interface UploadLinkView {
  id: string;
  name: string;
  email: string;
  /** Who on the team sent it (null once their account is gone). */
  sentBy: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  revokedAt: string | null;
  state: UploadLinkState;
}

export interface UploadLinksView {
  links: UploadLinkView[];
}

/**
 * What the holder of a link reads: who asks, for what, until when — the
 * least a title company or an appraiser needs to place the request (the
 * property's city and state, never the borrower or the street).
 */
export interface UploadLinkInfo {
  teamName: string;
  teamLogoUrl: string | null;
  /** The name the team sent the link to. */
  recipientName: string;
  itemLabel: string;
  propertyCity: string;
  propertyState: string;
  expiresAt: string;
  /** The most bytes one file may have, and how many files one upload may hold. */
  maxFileBytes: number;
  maxFiles: number;
}

/** What a third party's finished upload answers: the files the team now has, and nothing of the loan. */
export interface LinkUploadReceipt {
  teamName: string;
  files: { name: string; size: number }[];
}
