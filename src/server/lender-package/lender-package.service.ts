import type { FastifyBaseLogger } from 'fastify';
import { analyseLoan } from '../../shared/domain/loan-dscr';
import { COVER_SHEET_NAME } from '../../shared/domain/lender-package';
import { AppError } from '../../shared/errors';
import { recordActivity } from '../activity/activity-log';
import type { AppContext } from '../app-context';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { ChecklistItemRow, DocumentFileRow, DocumentVersionRow } from '../db/schema';
import { loanInputOf } from '../loans/loan-record';
import { renderCoverSheet, type CoverSheet } from './cover-sheet';
import { folderNames, itemFolderName, packageFileName } from './entry-names';
import * as q from './lender-package.queries';
import { storedZip, type StoredZip, type ZipEntry } from './stored-zip';

type Deps = Pick<AppContext, 'db' | 'files'>;

/** Items whose documents the lender does not get: the team waived them, or they do not apply. */
const settledWithoutDocument = (item: ChecklistItemRow): item is ChecklistItemRow & { status: 'waived' | 'not_applicable' } =>
  item.status === 'waived' || item.status === 'not_applicable';

interface PackageDocument {
  item: ChecklistItemRow;
  version: DocumentVersionRow;
  files: DocumentFileRow[];
}

/** What a package holds: its zip entries after the cover sheet, and the sheet's lists. */
export interface PackagePlan {
  teamId: string;
  fileName: string;
  cover: CoverSheet;
  /** The documents' entries, in checklist order; the stored file of each is opened only when the zip reaches it. */
  entries: (ZipEntry & { file: DocumentFileRow })[];
}

/**
 * Reads what goes into the loan's lender package: per checklist item (in
 * the checklist's order) the newest approved version and its files, the
 * waived and not-applicable items with their reasons, and the rest as still
 * outstanding. Nothing is opened yet.
 */
export async function planPackage(deps: Deps, loanId: string, { preparedBy, now }: { preparedBy: string; now: Date }): Promise<PackagePlan> {
  const found = await q.findLoanAndTeam(deps.db, loanId);
  if (!found) throw new AppError('not_found', 'This loan does not exist');
  const items = await q.checklistOf(deps.db, loanId);
  const approved = new Map((await q.latestApprovedVersions(deps.db, loanId)).map((version) => [version.itemId, version]));
  const files = await q.filesOfVersions(
    deps.db,
    [...approved.values()].map((version) => version.id),
  );

  const documents: PackageDocument[] = [];
  const thresholds = { strong: found.strongCenti / 100, eligible: found.eligibleCenti / 100 };
  const cover: CoverSheet = {
    teamName: found.teamName,
    preparedBy,
    generatedAt: now,
    loan: { ...loanInputOf(found.loan), stage: found.loan.stage },
    thresholds,
    // The loan page's own analysis (LoanDetail.dscr), so the sheet and the page cannot disagree.
    dscr: analyseLoan(loanInputOf(found.loan), thresholds),
    documents: [],
    settled: [],
    outstanding: [],
  };
  for (const item of items) {
    const version = approved.get(item.id);
    if (settledWithoutDocument(item)) {
      cover.settled.push({ label: item.label, status: item.status, confirmed: item.notApplicableConfirmed, reason: item.reason });
    } else if (version) {
      documents.push({ item, version, files: files.filter((file) => file.versionId === version.id) });
    } else {
      cover.outstanding.push({ label: item.label, status: item.status });
    }
  }

  const entries: PackagePlan['entries'] = [];
  documents.forEach(({ item, version, files: versionFiles }, index) => {
    const folder = itemFolderName(index + 1, documents.length, item.label);
    const nameIn = folderNames();
    const named = versionFiles.map((file) => ({ file, name: nameIn(file.name) }));
    cover.documents.push({
      folder,
      label: item.label,
      status: item.status,
      versionNumber: version.number,
      documentDate: version.documentDate,
      files: named.map(({ file, name }) => ({ name, size: file.size, sha256: file.sha256 })),
    });
    for (const { file, name } of named) {
      entries.push({
        name: `${folder}/${name}`,
        mtime: file.createdAt,
        size: file.size,
        file,
        open: () => deps.files.open({ objectKey: file.objectKey, wrappedKey: file.wrappedKey, size: file.size }),
      });
    }
  });
  return { teamId: found.loan.teamId, fileName: packageFileName(found.loan.borrowerName, found.loan.propertyStreet), cover, entries };
}

export interface OpenedPackage extends StoredZip {
  teamId: string;
  fileName: string;
  documents: number;
  files: number;
}

/**
 * The loan's lender package as a stream of known length (decision 015): the
 * cover sheet, rendered in memory first, then every approved file decrypted
 * as the zip reaches it. A stored file that fails on the way (authentication,
 * a missing object) is logged and breaks the stream, so the download fails
 * rather than holding wrong bytes.
 */
export async function openPackage(
  deps: Deps,
  loanId: string,
  options: { preparedBy: string; now: Date; log: Pick<FastifyBaseLogger, 'error'> },
): Promise<OpenedPackage> {
  const plan = await planPackage(deps, loanId, options);
  const cover = await renderCoverSheet(plan.cover);
  const byName = new Map(plan.entries.map((entry) => [entry.name, entry.file]));
  const zip = await storedZip([{ name: COVER_SHEET_NAME, mtime: options.now, bytes: cover }, ...plan.entries], {
    onError: (error, entryName) => {
      const file = entryName ? byName.get(entryName) : undefined;
      options.log.error(
        { err: error, loanId, fileId: file?.id ?? null, entry: entryName },
        'The lender package broke off: a stored file failed while being sent',
      );
    },
  });
  return { ...zip, teamId: plan.teamId, fileName: plan.fileName, documents: plan.cover.documents.length, files: plan.entries.length };
}

/** The download goes to the loan's activity (internal) and the team's audit log, in one transaction. */
export async function recordDownload(
  deps: Pick<AppContext, 'db'>,
  loanId: string,
  who: { userId: string; email: string },
  opened: Pick<OpenedPackage, 'teamId' | 'documents' | 'files' | 'size'>,
  origin: AuditEntry['origin'],
) {
  const data = { documents: opened.documents, files: opened.files, bytes: opened.size };
  await deps.db.transaction(async (tx) => {
    await recordActivity(tx, loanId, { actorId: who.userId, kind: 'package.downloaded', visibility: 'internal', data });
    await recordAudit(tx, {
      action: 'package.downloaded',
      actor: { id: who.userId, email: who.email },
      teamId: opened.teamId,
      ...(origin ? { origin } : {}),
      data: { loanId, ...data },
    });
  });
}
