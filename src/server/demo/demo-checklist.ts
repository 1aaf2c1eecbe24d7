import type { ItemStatus } from '../../shared/domain/checklist-status';
import type { TemplateItem } from '../../shared/domain/checklist-templates';
import type { UploaderKind, VersionReview } from '../../shared/domain/documents';
import { MAIN_STAGES, isExitStage, type MainStage } from '../../shared/domain/loan-stages';
import { filesPerVersion } from './demo-documents';
import type { DemoActivity, DemoLoan, DemoPerson, Rng } from './demo-loans';

/*
 * Each demo loan's checklist, decided the way the loan got where it is: the
 * further along, the more of its items approved; a loan in the middle of the
 * line has items in every other state (uploaded, in review, sent back with a
 * reason, waived, not applicable, expired). Every tag has the versions and
 * the activity rows the real actions would have left, in time order, between
 * the loan's application and its last step (or now). Pure: no database, no
 * clock but the `now` given; ids come from `newId`.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
const addDays = (day: string, days: number) => isoDay(new Date(dayStart(day).getTime() + days * DAY));

/** How far along each main-line step is, for its documents: the share approved, and the share in flight. */
const PROGRESS: Readonly<Record<MainStage, { done: number; inFlight: number }>> = {
  lead: { done: 0, inFlight: 0 },
  application: { done: 0.1, inFlight: 0.15 },
  borrower_invited: { done: 0.2, inFlight: 0.3 },
  documents_collecting: { done: 0.4, inFlight: 0.45 },
  appraisal_ordered: { done: 0.55, inFlight: 0.35 },
  appraisal_received: { done: 0.65, inFlight: 0.3 },
  underwriting: { done: 0.75, inFlight: 0.22 },
  conditionally_approved: { done: 0.85, inFlight: 0.15 },
  clear_to_close: { done: 1, inFlight: 0 },
  closing_scheduled: { done: 1, inFlight: 0 },
  funded: { done: 1, inFlight: 0 },
};

/** Items a borrower may fairly say do not apply to them, and why. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  leases: 'The property is vacant: we are buying it to renovate, so there is no lease yet.',
  'real-estate-owned': 'This is my first investment property; I own no other real estate.',
  'operating-agreement': 'My LLC has a single member and was formed without an operating agreement.',
  'hoa-questionnaire': 'The building has no HOA.',
};
const WAIVED = [
  'The lender waived it for this program (experienced investor).',
  'Already in the lender’s file from the borrower’s last loan with them.',
  'Not needed: the title company collects it at closing.',
] as const;
const NEEDS_REVISION: Readonly<Record<string, readonly string[]>> = {
  'government-id': ['The photo is blurry: the ID number cannot be read. Take it again in good light.', 'The ID expired last month; send a current one.'],
  'bank-statements': [
    'Page 3 of 4 of the October statement is missing; upload the whole statement.',
    'These are screenshots: download the PDF statements from the bank.',
  ],
  leases: ['The lease for unit 2 is not signed by the tenant.'],
  'hazard-insurance': [
    'The quote names the wrong property address; ask the agent for a corrected one.',
    'Coverage is below the loan amount; the lender needs replacement cost.',
  ],
};
const NEEDS_REVISION_ANY = [
  'The document is cut off at the bottom; send the full page.',
  'This is an older version; upload the signed and dated one.',
] as const;
/**
 * Where the due dates of an open loan's unsettled items fall, in days from
 * today: most ahead, a few passed, so the overdue ones stand out. Picked by
 * the item's place and the loan's first day, not the PRNG, so the rest of
 * the book stays as it was.
 */
const DUE_FROM_TODAY = [-6, -2, 1, 3, 5, 7, 10, 12, 14, 21] as const;

const THIRD_PARTIES: Readonly<Record<string, string>> = {
  insurance: 'Gulf Coast Insurance Agency',
  appraisal: 'Keystone Appraisal Group',
  title: 'Lone Star Title Co.',
  credit: 'Cardinal Loan Servicing',
  property: 'Cardinal Loan Servicing',
};

export interface DemoItemRow {
  id: string;
  key: string;
  status: ItemStatus;
  reason: string | null;
  notApplicableConfirmed: boolean;
  documentDate: string | null;
  dueDate: string | null;
  updatedAt: Date;
  updatedBy: string | null;
  version: number;
}

export interface DemoVersionRow {
  id: string;
  itemId: string;
  number: number;
  uploadedBy: string | null;
  uploaderName: string;
  uploadedAs: UploaderKind;
  createdAt: Date;
  review: VersionReview;
  reviewReason: string | null;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  documentDate: string | null;
}

export interface DemoChecklist {
  items: DemoItemRow[];
  versions: DemoVersionRow[];
  activity: DemoActivity[];
}

export interface DemoChecklistPeople {
  owner: DemoPerson;
  assistant: DemoPerson;
  /** The loan's borrower with an account, if it has one: they upload their own documents and may say one does not apply. */
  borrower: DemoPerson | null;
}

/**
 * The state of each of `template`'s items on `loan` (`ids[i]` is item i's
 * id), with its versions and activity. `withDocuments` false: a loan of a
 * large book (benchmarks) whose items carry no files, so only the tags that
 * need none (requested, waived, not applicable) are used.
 */
export function demoChecklist(
  rng: Rng,
  loan: DemoLoan,
  template: readonly TemplateItem[],
  ids: readonly string[],
  { now, people, newId, withDocuments = true }: { now: Date; people: DemoChecklistPeople; newId: () => string; withDocuments?: boolean },
): DemoChecklist {
  const lineEnd: MainStage = loan.leftFromStage ?? (loan.stage as MainStage);
  const progress = PROGRESS[lineEnd];
  const closed = loan.stage === 'funded' || isExitStage(loan.stage);
  const reached = (stage: MainStage) => loan.stageChanges.find((change) => change.toStage === stage)?.at;
  // Documents arrive from the application on (once the borrower with an account joined), and stop at the loan's last step once it closed.
  const until = closed ? loan.stageChanges.at(-1)!.at : new Date(now.getTime() - 10 * 60_000);
  const joined = loan.activity.find((entry) => entry.kind === 'participant.joined' && entry.actorId === people.borrower?.userId)?.at;
  const starts = [(reached('application') ?? loan.createdAt).getTime(), ...(joined ? [joined.getTime()] : [])];
  const from = new Date(Math.min(Math.max(...starts) + HOUR, until.getTime()));
  const today = isoDay(now);
  // The day approved documents must still be good on: the closing (or today) while the loan is open, the day it funded; none once it exited.
  const mustLast = loan.stage === 'funded' ? loan.input.targetClosingDate : closed ? null : [loan.input.targetClosingDate ?? today, today].sort().at(-1)!;
  const between = (start: Date, end: Date) => new Date(start.getTime() + rng.next() * Math.max(0, end.getTime() - start.getTime()));

  const items: DemoItemRow[] = [];
  const versions: DemoVersionRow[] = [];
  const activity: DemoActivity[] = [];
  let notApplicableOffered = false;

  template.forEach((templateItem, index) => {
    const id = ids[index]!;
    const { key, label, borrowerVisible, provider, validityDays = null } = templateItem;
    const visibility = borrowerVisible ? ('shared' as const) : ('internal' as const);
    const events: DemoActivity[] = [];
    const event = (kind: string, actor: DemoPerson | null, at: Date, data: Record<string, unknown> = {}) =>
      events.push({ actorId: actor?.userId ?? null, kind, visibility, data: { itemId: id, label, ...data }, at });
    const row: DemoItemRow = {
      id,
      key,
      status: 'requested',
      reason: null,
      notApplicableConfirmed: false,
      documentDate: null,
      // As the loan was opened: due `dueInDays` after its first day (itemRowsFrom); moved around today below while it is still open.
      dueDate: templateItem.dueInDays ? addDays(isoDay(loan.createdAt), templateItem.dueInDays) : null,
      updatedAt: loan.createdAt,
      updatedBy: null,
      version: 1,
    };

    // The loan's borrower says the first item that may not apply to them does not.
    const borrower = people.borrower;
    if (borrower && borrowerVisible && provider === 'borrower' && key in NOT_APPLICABLE && !notApplicableOffered && progress.done > 0) {
      notApplicableOffered = true;
      const claimedAt = between(from, new Date(from.getTime() + (until.getTime() - from.getTime()) / 2));
      row.status = 'not_applicable';
      row.reason = NOT_APPLICABLE[key]!;
      event('checklist.item_not_applicable', borrower, claimedAt, { reason: row.reason, byName: borrower.name });
      // Confirmed once the file is well along; still waiting for the team on a loan collecting its documents.
      if (MAIN_STAGES.indexOf(lineEnd) > MAIN_STAGES.indexOf('documents_collecting')) {
        row.notApplicableConfirmed = true;
        event('checklist.not_applicable_confirmed', people.owner, between(claimedAt, until));
      }
      return finish();
    }

    const roll = rng.next();
    const done = roll < progress.done;
    const inFlight = !done && roll < progress.done + progress.inFlight;
    if (!done && !inFlight) return finish();

    // Now and then the lender does not need an item after all, and the team waives it.
    if (done && rng.chance(0.08)) {
      row.status = 'waived';
      row.reason = rng.pick(WAIVED);
      event('checklist.item_waived', people.owner, between(from, until), { reason: row.reason });
      return finish();
    }
    if (!withDocuments) return finish();

    // Who sends this item's documents: the borrower themselves, the team on their behalf, or the third party.
    const uploader =
      provider === 'third_party'
        ? { person: null, name: THIRD_PARTIES[templateItem.category] ?? 'Lone Star Title Co.', as: 'third_party' as const }
        : borrower
          ? { person: borrower, name: borrower.name, as: 'borrower' as const }
          : { person: people.assistant, name: people.assistant.name, as: 'team' as const };
    const reviewer = rng.chance(0.6) ? people.assistant : people.owner;
    const final: ItemStatus = done
      ? validityDays !== null && progress.done < 1 && !closed && !loan.archived && rng.chance(0.15)
        ? 'expired'
        : 'approved'
      : rng.pick(['uploaded', 'in_review', 'needs_revision'] as const);
    // Some items were sent back once before the version that stands.
    const sentBackFirst = rng.chance(final === 'needs_revision' ? 0 : 0.25);
    const count = sentBackFirst ? 2 : 1;

    // An approved document's date: recent when it was approved, and good through the closing (an expired one: not).
    let approvedAt: Date | null = null;
    let documentDate: string | null = null;
    if (final === 'approved' || final === 'expired') {
      const expiredDate = final === 'expired' ? addDays(mustLast!, -validityDays! - rng.int(1, 20)) : null;
      const earliest = expiredDate ?? (validityDays !== null && mustLast ? addDays(mustLast, -validityDays) : null);
      const start = new Date(Math.max(from.getTime() + count * 2 * DAY, earliest ? dayStart(earliest).getTime() + DAY : 0));
      if (start > until) return finish(); // Not asked for yet: it would not last until the closing.
      approvedAt = between(start, until);
      const approvedOn = isoDay(approvedAt);
      if (expiredDate) documentDate = expiredDate;
      else {
        const oldest = [earliest ?? approvedOn, addDays(approvedOn, -45)].sort().at(-1)!;
        const span = Math.round((dayStart(approvedOn).getTime() - dayStart(oldest).getTime()) / DAY);
        documentDate = addDays(oldest, rng.int(0, Math.max(0, span - 1)));
      }
    }

    // Each version in a slot of its own between the first upload and the end: uploaded, opened, reviewed.
    const end = approvedAt ?? until;
    const first = between(from, new Date(from.getTime() + (end.getTime() - from.getTime()) / 3));
    const slot = (end.getTime() - first.getTime()) / count;
    for (let number = 1; number <= count; number++) {
      const last = number === count;
      const at = new Date(first.getTime() + (number - 1) * slot);
      const review: VersionReview = !last
        ? 'needs_revision'
        : final === 'approved' || final === 'expired'
          ? 'approved'
          : final === 'uploaded'
            ? 'pending'
            : final;
      const version: DemoVersionRow = {
        id: newId(),
        itemId: id,
        number,
        uploadedBy: uploader.person?.userId ?? null,
        uploaderName: uploader.name,
        uploadedAs: uploader.as,
        createdAt: at,
        review,
        reviewReason: null,
        reviewedBy: null,
        reviewedAt: null,
        documentDate: null,
      };
      versions.push(version);
      row.status = 'uploaded';
      // A new version drops the reason the last one was sent back for, as the real upload does: that reason stays with its version.
      row.reason = null;
      event('document.uploaded', uploader.person, at, {
        versionNumber: number,
        fileCount: filesPerVersion(key),
        uploadedAs: uploader.as,
        byName: uploader.as === 'borrower' ? uploader.name : null,
      });
      if (review === 'pending') break;
      event('document.review_started', reviewer, new Date(at.getTime() + slot * 0.3), { versionNumber: number });
      row.status = 'in_review';
      if (review === 'in_review') break;
      const reviewedAt = last && approvedAt ? approvedAt : new Date(at.getTime() + slot * 0.6);
      version.reviewedBy = reviewer.userId;
      version.reviewedAt = reviewedAt;
      if (review === 'needs_revision') {
        version.reviewReason = rng.pick(NEEDS_REVISION[key] ?? NEEDS_REVISION_ANY);
        row.status = 'needs_revision';
        row.reason = version.reviewReason;
        event('document.needs_revision', reviewer, reviewedAt, { versionNumber: number, reason: version.reviewReason });
      } else {
        version.documentDate = documentDate;
        row.status = 'approved';
        row.reason = null;
        row.documentDate = documentDate;
        event('document.approved', reviewer, reviewedAt, { versionNumber: number, documentDate });
      }
    }

    if (final === 'expired') {
      // It expired the morning after its last good day, or at its approval when it was already too old for the closing.
      const validThrough = addDays(documentDate!, validityDays!);
      const nextMorning = new Date(dayStart(addDays(validThrough, 1)).getTime() + 10 * 60_000);
      const expiredAt = nextMorning > approvedAt! && nextMorning < until ? nextMorning : new Date(approvedAt!.getTime() + 1000);
      row.status = 'expired';
      events.push({
        actorId: null,
        kind: 'checklist.item_expired',
        visibility,
        data: { itemId: id, label, documentDate, validThrough, mustBeGoodOn: mustLast },
        at: expiredAt,
      });
    }
    return finish();

    function finish() {
      const settled = row.status === 'approved' || row.status === 'waived' || (row.status === 'not_applicable' && row.notApplicableConfirmed);
      if (row.dueDate && !closed && !loan.archived && !settled) {
        const day = Math.floor(loan.createdAt.getTime() / DAY);
        row.dueDate = addDays(today, DUE_FROM_TODAY[(index + day) % DUE_FROM_TODAY.length]!);
      }
      // Every event changed the item once (its version counts the changes), the last one when and by whom.
      const lastEvent = events.at(-1);
      row.version = 1 + events.length;
      if (lastEvent) {
        row.updatedAt = lastEvent.at;
        row.updatedBy = lastEvent.actorId;
      }
      items.push(row);
      activity.push(...events);
    }
  });
  return { items, versions, activity };
}
