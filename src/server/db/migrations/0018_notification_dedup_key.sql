-- A notice that is the same one again (a loan's reminder to a person on one local day, queued twice:
-- the schedule and "Send one now", or a job run twice) replaces its inbox row instead of adding a
-- second one: notify() inserts with ON CONFLICT on this key (decision 022).
ALTER TABLE "notification" ADD COLUMN "dedup_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_dedup_idx" ON "notification" USING btree ("user_id","dedup_key") WHERE "notification"."dedup_key" is not null;