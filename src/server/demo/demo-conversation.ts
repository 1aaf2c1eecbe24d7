import { isExitStage, MAIN_STAGES, type MainStage } from '../../shared/domain/loan-stages';
import type { DemoActivity, DemoLoan, DemoPerson, Rng } from './demo-loans';

/*
 * Each demo loan's discussion, as the comments feature would have left it
 * (decision 019): threads shared with the borrowers (bank statements, the
 * appraisal visit, an entity document) and internal ones the team keeps to
 * itself (the lender's reserves, a lien on title), replies, comments about a
 * checklist item, @mentions, an edited comment and a deleted one whose reply
 * stays. Every comment comes with the `comment.posted` activity row that
 * posted it (and its edits and deletion with theirs): the seed numbers those
 * rows and gives each comment its row's `seq` and `shared_seq`. Pure: no
 * database, no clock but the `now` given; ids come from `newId`.
 */

const HOUR = 3_600_000;

type Speaker = 'owner' | 'assistant' | 'borrower';

interface ScriptedMessage {
  by: Speaker;
  body: string;
  /** Who it @mentions (each named in the body as "@Name"). */
  mentions?: Speaker[];
  /** Its author changed it later: the text it was posted with (the body above is the text that stands). */
  postedAs?: string;
  /** Its author, or an owner, deleted it later. */
  deleted?: boolean;
  /** Hours after the message before it (the thread's first: after the window opens). */
  after: number;
}

interface ScriptedThread {
  visibility: 'shared' | 'internal';
  /** The checklist item it is about, by template key (the first of them the loan has). */
  itemKeys?: readonly string[];
  messages: ScriptedMessage[];
}

export interface DemoConversationPeople {
  owner: DemoPerson;
  assistant: DemoPerson;
  /** The loan's borrower with an account, if it has one: only then does the borrower's side speak. */
  borrower: DemoPerson | null;
}

export interface DemoCommentRow {
  id: string;
  parentId: string | null;
  itemId: string | null;
  visibility: 'shared' | 'internal';
  authorId: string;
  body: string;
  mentions: string[];
  createdAt: Date;
  editedAt: Date | null;
  deletedAt: Date | null;
  /** The `comment.posted` row (one of `activity`): its numbers become the comment's cursors. */
  posted: DemoActivity;
}

export interface DemoConversation {
  comments: DemoCommentRow[];
  activity: DemoActivity[];
}

const APPRAISAL_KEYS = ['appraisal-1007', 'appraisal-1025', 'appraisal-commercial'] as const;

/** The threads a loan that got as far as `step` (its index in MAIN_STAGES) has had, by what its borrower could say. */
function scriptFor(step: number, loan: DemoLoan, names: { borrower: string | null; assistant: string }, rng: Rng): ScriptedThread[] {
  const borrowerFirst = names.borrower?.split(' ')[0] ?? null;
  const has = (stage: MainStage) => step >= MAIN_STAGES.indexOf(stage);
  const threads: ScriptedThread[] = [];
  const hi = borrowerFirst ? `Hi ${borrowerFirst}, ` : '';
  const speaks = borrowerFirst !== null;

  // Every loan past its first step: the team says where things stand, in the thread the borrowers see.
  threads.push({
    visibility: 'shared',
    messages: [
      {
        by: 'owner',
        body: `${hi}welcome aboard! Everything for this loan happens here: upload to the checklist and ask your questions in this discussion, so nothing gets lost in e-mail.`,
        after: 2,
      },
      ...(speaks ? [{ by: 'borrower' as const, body: 'Thanks! Looking forward to getting this one closed.', after: 3 }] : []),
    ],
  });
  // The team's own notes: what the lender said about reserves.
  threads.push({
    visibility: 'internal',
    messages: [
      {
        by: 'owner',
        body: `Lender wants 6 months of reserves on this one instead of 3 (${loan.input.propertyType === 'short_term_rental' ? 'short-term rental' : 'program overlay'}). @${names.assistant} can you check the statements cover it?`,
        mentions: ['assistant'],
        after: 6,
      },
      { by: 'assistant', body: 'On it. The two statements we have show about 4 months; I will ask for the brokerage account too.', after: 4 },
    ],
  });
  if (has('borrower_invited')) {
    threads.push({
      visibility: 'shared',
      itemKeys: ['bank-statements'],
      messages: speaks
        ? [
            {
              by: 'assistant',
              body: `${hi}for the reserves we need your last two full months of statements: every page, as the PDFs your bank gives you (screenshots are not accepted).`,
              after: 5,
            },
            { by: 'borrower', body: 'Will do. Does the business account count, or only my personal one?', after: 7 },
            {
              by: 'assistant',
              body: 'Either counts, as long as you or your LLC own it. If it is the LLC’s, the operating agreement shows the lender you control it.',
              after: 2,
            },
          ]
        : [
            {
              by: 'assistant',
              body: 'For the reserves: the last two full months of statements, every page, as the PDFs the bank gives you (screenshots are not accepted).',
              after: 5,
            },
          ],
    });
  }
  if (has('documents_collecting')) {
    threads.push({
      visibility: 'shared',
      itemKeys: ['good-standing', 'articles-of-organization', 'operating-agreement'],
      messages: speaks
        ? [
            {
              by: 'borrower',
              body: 'The Secretary of State site shows my LLC as active, but the certificate costs $25 to order. Is a screenshot of the site enough?',
              after: 8,
            },
            {
              by: 'owner',
              body: 'The lender needs the certificate itself, dated within 30 days of closing. Order it online and upload the PDF here; no paper copy needed.',
              postedAs:
                'The lender needs the certificate itself, dated within 60 days of closing. Order it online and upload the PDF here; no paper copy needed.',
              after: 3,
            },
          ]
        : [
            {
              by: 'owner',
              body: 'The lender needs the entity documents before they send the file to underwriting: articles, operating agreement and a certificate of good standing dated within 30 days of closing.',
              after: 8,
            },
          ],
    });
    if (speaks) {
      // A borrower posted a bank account number in the open; the owner took it down and said why.
      threads.push({
        visibility: 'shared',
        messages: [
          { by: 'borrower', body: 'Here is the account for the earnest money wire: routing 111000025, account 4417 0093 2280.', deleted: true, after: 10 },
          {
            by: 'owner',
            body: 'I removed your message because it had your full account number. Please never post those here: wiring instructions come only from the title company, by phone.',
            after: 1,
          },
        ],
      });
    }
  }
  if (has('appraisal_ordered')) {
    const mentionBorrower = speaks && rng.chance(0.5);
    threads.push({
      visibility: 'shared',
      itemKeys: APPRAISAL_KEYS,
      messages: [
        {
          by: 'assistant',
          body: `${mentionBorrower ? `@${names.borrower!} ` : hi}the appraiser, Keystone Appraisal Group, can inspect Tuesday or Thursday morning. Which works for the tenant?`,
          mentions: mentionBorrower ? ['borrower'] : [],
          after: 4,
        },
        ...(speaks
          ? [
              { by: 'borrower' as const, body: 'Thursday works. The tenant asked for 24 hours’ notice; I will let them know.', after: 5 },
              {
                by: 'assistant' as const,
                body: 'Booked for Thursday at 10 am. The report usually takes 5–7 business days after the visit.',
                postedAs: 'Booked for Thursday at 9 am. The report usually takes 5–7 business days after the visit.',
                after: 2,
              },
            ]
          : [
              {
                by: 'assistant' as const,
                body: 'Booked for Thursday at 10 am. The report usually takes 5–7 business days after the visit.',
                postedAs: 'Booked for Thursday at 9 am. The report usually takes 5–7 business days after the visit.',
                after: 20,
              },
            ]),
      ],
    });
  }
  if (has('appraisal_received')) {
    threads.push({
      visibility: 'internal',
      itemKeys: ['title-commitment'],
      messages: [
        {
          by: 'assistant',
          body: 'Title shows an old HELOC from 2019 still open. The seller’s attorney says it was paid off; waiting on the release.',
          after: 12,
        },
        { by: 'owner', body: 'Thanks. If the release is not recorded by Friday, ask title for a payoff letter instead so the closing date holds.', after: 2 },
      ],
    });
  }
  if (has('underwriting')) {
    threads.push({
      visibility: 'shared',
      messages: [
        {
          by: 'owner',
          body: `${hi}the file is with underwriting. Their usual questions are about large deposits, so if any of your statements show one, a line on where it came from saves a round trip.`,
          after: 6,
        },
        ...(speaks
          ? [{ by: 'borrower' as const, body: 'The $18,000 deposit in March is the sale of my truck; I can upload the bill of sale.', after: 9 }]
          : []),
      ],
    });
  }
  if (isExitStage(loan.stage)) {
    threads.push({
      visibility: 'internal',
      messages: [{ by: 'owner', body: 'Closing this file out. Keep the documents in case they come back next quarter.', after: 1 }],
    });
  }
  return threads;
}

/**
 * The discussion of `loan`: its threads between `from` (the loan's
 * application, or the borrower joining) and `until` (its last step once
 * closed, or a few minutes ago), none on a loan still at its first step.
 * `items` are the loan's checklist items (id, template key, borrower-visible).
 */
export function demoConversation(
  rng: Rng,
  loan: DemoLoan,
  items: readonly { id: string; key: string; borrowerVisible: boolean }[],
  { now, people, newId }: { now: Date; people: DemoConversationPeople; newId: () => string },
): DemoConversation {
  if (loan.stageChanges.length < 2) return { comments: [], activity: [] };
  const lineEnd = loan.leftFromStage ?? loan.stage;
  const step = MAIN_STAGES.indexOf(lineEnd as MainStage);
  const closed = loan.stage === 'funded' || isExitStage(loan.stage);
  const until = closed ? loan.stageChanges.at(-1)!.at : new Date(now.getTime() - 10 * 60_000);
  const reached = loan.stageChanges[1]!.at;
  const joined = people.borrower
    ? loan.activity.find((entry) => entry.kind === 'participant.joined' && entry.actorId === people.borrower!.userId)?.at
    : undefined;
  const from = new Date(Math.min(Math.max(reached.getTime(), joined?.getTime() ?? 0) + HOUR, until.getTime()));
  const personOf = (speaker: Speaker): DemoPerson => (speaker === 'borrower' ? people.borrower! : people[speaker]);

  const comments: DemoCommentRow[] = [];
  const activity: DemoActivity[] = [];
  const threads = scriptFor(Math.max(step, 1), loan, { borrower: people.borrower?.name ?? null, assistant: people.assistant.name }, rng);
  const span = Math.max(0, until.getTime() - from.getTime());
  threads.forEach((thread, index) => {
    // Threads start in order across the window; each thread's messages keep their gaps, squeezed to fit what is left of it.
    const start = from.getTime() + (span * (index + rng.next() * 0.5)) / threads.length;
    const hours = thread.messages.reduce((sum, message) => sum + message.after, 0);
    const room = until.getTime() - start;
    const scale = Math.min(1, room / (hours * HOUR * 1.25 || 1));
    const item = thread.itemKeys ? thread.itemKeys.map((key) => items.find((candidate) => candidate.key === key)).find(Boolean) : undefined;
    // A shared thread is only about an item the borrowers see (a shared comment would show them its label).
    const itemId = item && (thread.visibility === 'internal' || item.borrowerVisible) ? item.id : null;
    let at = start;
    let root: DemoCommentRow | null = null;
    for (const message of thread.messages) {
      at += message.after * HOUR * scale;
      const author = personOf(message.by);
      const mentions = (message.mentions ?? []).map((speaker) => personOf(speaker).userId);
      const id = newId();
      const postedAt = new Date(at);
      const side = message.by === 'borrower' ? 'borrower' : 'team';
      const posted: DemoActivity = {
        actorId: author.userId,
        kind: 'comment.posted',
        visibility: thread.visibility,
        data: { commentId: id, parentId: root?.id ?? null, itemId, byName: author.name, side, mentions },
        at: postedAt,
      };
      activity.push(posted);
      const row: DemoCommentRow = {
        id,
        parentId: root?.id ?? null,
        itemId,
        visibility: thread.visibility,
        authorId: author.userId,
        body: message.body,
        mentions,
        createdAt: postedAt,
        editedAt: null,
        deletedAt: null,
        posted,
      };
      // Changed or taken down a little later, before the next reply.
      const later = new Date(at + (message.after > 0 ? 0.2 : 0.05) * HOUR * scale);
      if (message.postedAs !== undefined) {
        row.editedAt = later;
        activity.push({
          actorId: author.userId,
          kind: 'comment.edited',
          visibility: thread.visibility,
          data: { commentId: id, byName: author.name, previousBody: message.postedAs, previousMentions: mentions },
          at: later,
        });
      }
      if (message.deleted) {
        row.body = '';
        row.mentions = [];
        row.deletedAt = later;
        activity.push({
          actorId: people.owner.userId,
          kind: 'comment.deleted',
          visibility: thread.visibility,
          data: { commentId: id, byName: people.owner.name, authorId: author.userId },
          at: later,
        });
      }
      comments.push(row);
      root ??= row;
    }
  });
  return { comments, activity };
}
