import { createHash, randomBytes } from 'node:crypto';
import type { SignedInPrincipal } from '../../shared/domain/access';
import { ITEM_STATUS_LABELS, nextItemStatus } from '../../shared/domain/checklist-status';
import { MAX_FILES_PER_VERSION } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';
import {
  UploadLinkTokenSchema,
  type SendUploadLinkFields,
  type UploadLinkInfo,
  type UploadLinkState,
  type UploadLinkView,
  type UploadLinksView,
} from '../../shared/schemas/upload-links';
import { findTeam } from '../accounts/accounts.queries';
import { recordActivity } from '../activity/activity-log';
import type { AppContext } from '../app-context';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { Db } from '../db/client';
import type { UploadLinkRow } from '../db/schema';
import { enqueueMail } from '../platform/mail/mail-jobs';
import { logoPath } from '../teams/logo';
import { teamMailBrand } from '../teams/team-brand';
import { uploadLinkMail } from './documents.mail';
import * as documents from './documents.queries';
import type { Actor } from './documents.service';
import * as q from './upload-links.queries';

type Deps = Pick<AppContext, 'db' | 'publicUrl' | 'config'>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** 256 bits of randomness, URL-safe: the link's key. Only its SHA-256 is stored. */
const newLinkToken = () => randomBytes(32).toString('base64url');
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Where the link's holder uploads: the token in the fragment, so no request, log or Referer carries it. */
export const uploadLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/upload#${token}`;

export function linkState(link: Pick<UploadLinkRow, 'usedAt' | 'revokedAt' | 'expiresAt'>, now = Date.now()): UploadLinkState {
  if (link.usedAt) return 'used';
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now ? 'expired' : 'active';
}

function linkView(link: UploadLinkRow, sentBy: string | null): UploadLinkView {
  return {
    id: link.id,
    name: link.name,
    email: link.email,
    sentBy,
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt.toISOString(),
    usedAt: link.usedAt?.toISOString() ?? null,
    revokedAt: link.revokedAt?.toISOString() ?? null,
    state: linkState(link),
  };
}

/**
 * Sends a third party a single-use upload link for one item: the link row
 * (the token's hash only), its mail (the link a secret of the outbox), an
 * internal activity line and the team's audit row, in one transaction. Only
 * for an item a third party provides, while it takes uploads.
 */
export async function sendLink(
  deps: Deps,
  principal: SignedInPrincipal,
  ids: { loanId: string; itemId: string },
  input: SendUploadLinkFields,
  origin: AuditEntry['origin'],
): Promise<UploadLinkView> {
  return deps.db.transaction(async (tx) => {
    const item = await documents.lockItem(tx, ids.itemId);
    if (!item || item.loanId !== ids.loanId) throw new AppError('not_found', 'This checklist item does not exist');
    if (item.provider !== 'third_party') {
      throw new AppError('conflict', 'Upload links are for items a third party provides: set who provides this item to Third party first.');
    }
    if (!nextItemStatus(item.status, 'upload')) {
      throw new AppError('conflict', `This item is ${ITEM_STATUS_LABELS[item.status].toLowerCase()}: ask for it again before sending a link.`);
    }
    const found = await documents.loanForMail(tx, ids.loanId);
    const team = found && (await findTeam(tx, found.loan.teamId));
    if (!found || !team) throw new AppError('not_found', 'This loan does not exist');
    const token = newLinkToken();
    const link = await q.insertLink(tx, {
      loanId: ids.loanId,
      itemId: item.id,
      name: input.name,
      email: input.email,
      tokenHash: hashLinkToken(token),
      createdBy: principal.userId,
      expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
    });
    const mail = uploadLinkMail(
      { name: input.name, email: input.email },
      {
        itemLabel: item.label,
        city: found.loan.propertyCity,
        state: found.loan.propertyState,
        link: uploadLinkUrl(deps.publicUrl, token),
        expiresAt: link.expiresAt,
      },
      { publicUrl: deps.publicUrl, brand: teamMailBrand(team, deps.publicUrl) },
    );
    await enqueueMail(tx, mail, { secret: true });
    const about = { itemId: item.id, label: item.label, linkId: link.id, name: link.name, email: link.email };
    await recordActivity(tx, ids.loanId, {
      actorId: principal.userId,
      kind: 'document.link_sent',
      visibility: 'internal',
      data: { ...about, expiresAt: link.expiresAt.toISOString() },
    });
    await recordAudit(tx, {
      action: 'upload_link.sent',
      actor: { id: principal.userId, email: principal.email },
      teamId: team.id,
      origin,
      data: { loanId: ids.loanId, ...about },
    });
    return linkView(link, principal.name);
  });
}

export async function listLinks(db: Db, itemId: string): Promise<UploadLinksView> {
  const rows = await q.itemLinks(db, itemId);
  return { links: rows.map(({ link, sentBy }) => linkView(link, sentBy)) };
}

/** Withdraws a link: it answers 410 from now on. A used link is refused (409); withdrawing twice changes nothing. */
export async function revokeLink(
  deps: Deps,
  principal: SignedInPrincipal,
  ids: { loanId: string; itemId: string; linkId: string },
  origin: AuditEntry['origin'],
): Promise<UploadLinkView> {
  return deps.db.transaction(async (tx) => {
    const link = await q.lockLink(tx, ids.linkId);
    if (!link || link.itemId !== ids.itemId) throw new AppError('not_found', 'This upload link does not exist');
    if (link.usedAt) throw new AppError('conflict', 'This link was already used: there is nothing to withdraw.');
    if (link.revokedAt) return linkView(link, null);
    const revoked = await q.revokeLink(tx, link.id);
    const about = { itemId: link.itemId, linkId: link.id, name: link.name, email: link.email };
    const item = await documents.lockItem(tx, link.itemId);
    await recordActivity(tx, ids.loanId, {
      actorId: principal.userId,
      kind: 'document.link_revoked',
      visibility: 'internal',
      data: { ...about, label: item?.label ?? null },
    });
    await recordAudit(tx, {
      action: 'upload_link.revoked',
      actor: { id: principal.userId, email: principal.email },
      teamId: await documents.loanTeamId(tx, ids.loanId),
      origin,
      data: { loanId: ids.loanId, ...about },
    });
    return linkView(revoked, null);
  });
}

const BEARER = /^Bearer ([^\s]+)$/i;

/**
 * The access layer's credential for `upload-link` routes: the link the
 * request's `Authorization: Bearer <token>` names, found by the token's hash.
 * No token, a malformed one or an unknown one names nothing (the route is
 * then an unknown route's 404); a used, withdrawn or expired link is a 410
 * that says which, so its holder knows to ask the team for a new one.
 */
export async function resolveLinkCredential(db: Db, authorization: string | undefined) {
  const token = UploadLinkTokenSchema.safeParse(BEARER.exec(authorization ?? '')?.[1]);
  if (!token.success) return {};
  const found = await q.linkByTokenHash(db, hashLinkToken(token.data));
  if (!found) return {};
  const { link, teamName } = found;
  const state = linkState(link);
  if (state === 'used') throw new AppError('gone', `This link was already used: ${teamName} has your documents. Ask them for a new link to send more.`);
  if (state === 'revoked') throw new AppError('gone', `${teamName} withdrew this link. Ask them for a new one if they still need documents from you.`);
  if (state === 'expired') throw new AppError('gone', `This link expired on ${link.expiresAt.toUTCString()}. Ask ${teamName} for a new one.`);
  return { uploadLink: { linkId: link.id, loanId: link.loanId, itemId: link.itemId } };
}

/** The uploader a link's routes act as: the third party, by the name and address the team gave. */
export async function linkActor(db: Db, linkId: string): Promise<Extract<Actor, { kind: 'link' }>> {
  const link = await q.findLink(db, linkId);
  if (!link) throw new AppError('not_found', 'This upload link does not exist');
  return { kind: 'link', linkId: link.id, name: link.name, email: link.email };
}

/** What the link's page shows: who asks for what, and until when. An item no longer asked for is a 410. */
export async function linkInfo(deps: Deps, linkId: string): Promise<UploadLinkInfo> {
  const scope = await q.linkScope(deps.db, linkId);
  const team = scope && (await findTeam(deps.db, scope.teamId));
  if (!scope || !team) throw new AppError('not_found', 'This upload link does not exist');
  if (!nextItemStatus(scope.item.status, 'upload')) throw new AppError('gone', `${team.name} no longer needs this document. Thank you.`);
  const logo = logoPath(team.id, team.logoSha256);
  return {
    teamName: team.name,
    teamLogoUrl: logo,
    recipientName: scope.link.name,
    itemLabel: scope.item.label,
    propertyCity: scope.propertyCity,
    propertyState: scope.propertyState,
    expiresAt: scope.link.expiresAt.toISOString(),
    maxFileBytes: deps.config.maxUploadBytes,
    maxFiles: MAX_FILES_PER_VERSION,
  };
}
