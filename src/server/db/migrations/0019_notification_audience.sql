-- Issue 22, the privacy of the conversation (decisions 019 and 021).
-- Each inbox row about a loan says whom it was written for (`audience`: the loan's team, or everyone
-- on it), and shows only while its person's role on the loan may read that: a team member who became
-- a borrower no longer reads the team's rows. A row about a comment points at it (`comment_id`) and
-- quotes it when the inbox is read, so no row keeps a comment's text after an edit or a deletion.
ALTER TABLE "notification" ADD COLUMN "audience" text;--> statement-breakpoint
ALTER TABLE "notification" ADD COLUMN "comment_id" uuid;--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_comment_id_comment_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_comment_idx" ON "notification" USING btree ("comment_id") WHERE "notification"."comment_id" is not null;--> statement-breakpoint
-- The rows written so far. A comment's rows take its visibility and lose the text they quoted.
UPDATE "notification" AS n SET "comment_id" = c."id", "audience" = CASE c."visibility" WHEN 'shared' THEN 'shared' ELSE 'team' END
  FROM "comment" AS c
 WHERE n."kind" IN ('comment', 'mention') AND n."data" ->> 'commentId' = c."id"::text;--> statement-breakpoint
UPDATE "notification" SET "data" = "data" - 'body' WHERE "kind" IN ('comment', 'mention');--> statement-breakpoint
-- What is only ever written to borrowers, and a review of a borrower's own upload (its person is on the loan, not on its team).
UPDATE "notification" SET "audience" = 'shared'
 WHERE "audience" IS NULL AND "loan_id" IS NOT NULL AND "kind" IN ('stage_change', 'documents_requested', 'reminder');--> statement-breakpoint
UPDATE "notification" AS n SET "audience" = 'shared'
 WHERE n."audience" IS NULL AND n."loan_id" IS NOT NULL AND n."kind" IN ('approved', 'needs_revision')
   AND NOT EXISTS (SELECT 1 FROM "loan" AS l JOIN "team_member" AS m ON m."team_id" = l."team_id" WHERE l."id" = n."loan_id" AND m."user_id" = n."user_id");--> statement-breakpoint
-- Anything else about a loan (an upload to the assignee, a review of the team's own upload) is the team's.
UPDATE "notification" SET "audience" = 'team' WHERE "audience" IS NULL AND "loan_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_audience_check" CHECK ("notification"."audience" in ('team', 'shared'));--> statement-breakpoint
ALTER TABLE "notification" ADD CONSTRAINT "notification_loan_audience_check" CHECK (("notification"."loan_id" is null) = ("notification"."audience" is null));--> statement-breakpoint
-- A comment deleted before this change keeps no earlier text either: its edits lose them, its posting its mentions.
UPDATE "activity" AS a
   SET "data" = CASE a."kind" WHEN 'comment.posted' THEN a."data" || '{"mentions": []}'::jsonb ELSE a."data" - 'previousBody' - 'previousMentions' END
  FROM "comment" AS c
 WHERE c."deleted_at" IS NOT NULL AND a."loan_id" = c."loan_id" AND a."kind" IN ('comment.posted', 'comment.edited')
   AND a."data" ->> 'commentId' = c."id"::text;--> statement-breakpoint
-- Comment digests are now mailed by their job from the comments as they are then, never through an outbox row holding
-- their text. The digests mailed so far (the mails that link to a comment) keep their addressee and subject only; one
-- still waiting that quotes a comment deleted since is not sent.
UPDATE "job" AS j
   SET "payload" = (j."payload" - 'text' - 'html' - '$secret') || '{"$cleared": ["text", "html"]}'::jsonb,
       "status" = 'done', "finished_at" = coalesce(j."finished_at", now()), "updated_at" = now()
 WHERE j."queue" = 'mail.send' AND j."payload" ->> 'text' LIKE '%#comment-%'
   AND (j."status" = 'done' OR EXISTS (
         SELECT 1 FROM "comment" AS c WHERE c."deleted_at" IS NOT NULL AND position(('#comment-' || c."id"::text) IN j."payload" ->> 'text') > 0));
