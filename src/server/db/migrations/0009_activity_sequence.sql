-- Number each loan's activity 1, 2, 3… in the order it was written (id order), its shared rows apart, and keep the last numbers on the loan.
ALTER TABLE "activity" ADD COLUMN "seq" integer;--> statement-breakpoint
ALTER TABLE "activity" ADD COLUMN "shared_seq" integer;--> statement-breakpoint
UPDATE "activity" AS a SET "seq" = n."seq" FROM (SELECT "id", row_number() OVER (PARTITION BY "loan_id" ORDER BY "id")::integer AS "seq" FROM "activity") AS n WHERE a."id" = n."id";--> statement-breakpoint
UPDATE "activity" AS a SET "shared_seq" = n."seq" FROM (SELECT "id", row_number() OVER (PARTITION BY "loan_id" ORDER BY "id")::integer AS "seq" FROM "activity" WHERE "visibility" = 'shared') AS n WHERE a."id" = n."id";--> statement-breakpoint
ALTER TABLE "activity" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "activity_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "shared_activity_seq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "loan" AS l SET "activity_seq" = m."seq", "shared_activity_seq" = m."shared_seq" FROM (SELECT "loan_id", max("seq") AS "seq", coalesce(max("shared_seq"), 0) AS "shared_seq" FROM "activity" GROUP BY "loan_id") AS m WHERE l."id" = m."loan_id";--> statement-breakpoint
DROP INDEX "activity_loan_idx";--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_loan_seq_key" UNIQUE("loan_id","seq");--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_loan_shared_seq_key" UNIQUE("loan_id","shared_seq");--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_shared_seq_check" CHECK (("activity"."visibility" = 'shared') = ("activity"."shared_seq" is not null));
