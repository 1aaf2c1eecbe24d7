ALTER TABLE "loan" ADD COLUMN "required_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "approved_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "outstanding_items" integer GENERATED ALWAYS AS (required_items - approved_items) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "borrower_required_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loan" ADD COLUMN "borrower_approved_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "loan_team_outstanding_idx" ON "loan" USING btree ("team_id","outstanding_items","id");--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_document_counts_check" CHECK (0 <= "loan"."approved_items" and "loan"."approved_items" <= "loan"."required_items" and 0 <= "loan"."borrower_approved_items" and "loan"."borrower_approved_items" <= "loan"."borrower_required_items" and "loan"."borrower_required_items" <= "loan"."required_items");--> statement-breakpoint
-- The loans that already have checklists get their counts, as refreshLoanDocumentCounts
-- (src/server/checklist/document-counts.ts) counts them: required items not waived and not
-- confirmed not applicable, and those of them approved; then the same over borrower-visible items.
UPDATE "loan" SET
  "required_items" = "c"."required_items",
  "approved_items" = "c"."approved_items",
  "borrower_required_items" = "c"."borrower_required_items",
  "borrower_approved_items" = "c"."borrower_approved_items"
FROM (
  SELECT "loan_id",
    count(*) FILTER (WHERE "required" AND NOT ("status" IN ('waived') OR ("status" IN ('not_applicable') AND "not_applicable_confirmed")))::integer AS "required_items",
    count(*) FILTER (WHERE "required" AND "status" IN ('approved'))::integer AS "approved_items",
    count(*) FILTER (WHERE "required" AND "borrower_visible" AND NOT ("status" IN ('waived') OR ("status" IN ('not_applicable') AND "not_applicable_confirmed")))::integer AS "borrower_required_items",
    count(*) FILTER (WHERE "required" AND "borrower_visible" AND "status" IN ('approved'))::integer AS "borrower_approved_items"
  FROM "checklist_item"
  GROUP BY "loan_id"
) AS "c"
WHERE "loan"."id" = "c"."loan_id";
