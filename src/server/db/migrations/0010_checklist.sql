CREATE TABLE "checklist_item" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"key" text,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"category" text NOT NULL,
	"required" boolean NOT NULL,
	"provider" text NOT NULL,
	"borrower_visible" boolean NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text,
	"not_applicable_confirmed" boolean DEFAULT false NOT NULL,
	"due_date" date,
	"validity_days" integer,
	"document_date" date,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "checklist_item_loan_key" UNIQUE("loan_id","key"),
	CONSTRAINT "checklist_item_status_check" CHECK ("checklist_item"."status" in ('requested', 'uploaded', 'in_review', 'approved', 'needs_revision', 'waived', 'not_applicable', 'expired')),
	CONSTRAINT "checklist_item_category_check" CHECK ("checklist_item"."category" in ('application', 'identity', 'entity', 'credit', 'property', 'income', 'assets', 'insurance', 'appraisal', 'title')),
	CONSTRAINT "checklist_item_provider_check" CHECK ("checklist_item"."provider" in ('borrower', 'third_party'))
);
--> statement-breakpoint
CREATE TABLE "checklist_template_item" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"key" text NOT NULL,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"category" text NOT NULL,
	"required" boolean NOT NULL,
	"provider" text NOT NULL,
	"borrower_visible" boolean NOT NULL,
	"due_in_days" integer,
	"validity_days" integer,
	"purposes" jsonb,
	"property_types" jsonb,
	CONSTRAINT "checklist_template_item_team_key" UNIQUE("team_id","key"),
	CONSTRAINT "checklist_template_item_category_check" CHECK ("checklist_template_item"."category" in ('application', 'identity', 'entity', 'credit', 'property', 'income', 'assets', 'insurance', 'appraisal', 'title')),
	CONSTRAINT "checklist_template_item_provider_check" CHECK ("checklist_template_item"."provider" in ('borrower', 'third_party'))
);
--> statement-breakpoint
ALTER TABLE "checklist_item" ADD CONSTRAINT "checklist_item_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checklist_item" ADD CONSTRAINT "checklist_item_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checklist_template_item" ADD CONSTRAINT "checklist_template_item_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checklist_item_loan_idx" ON "checklist_item" USING btree ("loan_id","position");