CREATE TABLE "activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" uuid NOT NULL,
	"actor_id" text,
	"kind" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"visibility" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_visibility_check" CHECK ("activity"."visibility" in ('shared', 'internal'))
);
--> statement-breakpoint
CREATE TABLE "loan" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"borrower_name" text NOT NULL,
	"borrower_email" text,
	"borrower_phone" text,
	"entity_name" text,
	"property_street" text NOT NULL,
	"property_unit" text,
	"property_city" text NOT NULL,
	"property_state" text NOT NULL,
	"property_zip" text NOT NULL,
	"property_type" text NOT NULL,
	"unit_count" integer,
	"unit_rents_cents" jsonb,
	"purpose" text NOT NULL,
	"value_cents" bigint NOT NULL,
	"loan_amount_cents" bigint NOT NULL,
	"note_rate_milli" integer NOT NULL,
	"term_years" integer NOT NULL,
	"amortization_years" integer NOT NULL,
	"interest_only" boolean DEFAULT false NOT NULL,
	"interest_only_months" integer,
	"prepayment_kind" text DEFAULT 'none' NOT NULL,
	"prepayment_years" integer,
	"monthly_rent_cents" bigint,
	"str_annual_revenue_cents" bigint,
	"str_expense_milli" integer,
	"annual_taxes_cents" bigint DEFAULT 0 NOT NULL,
	"annual_insurance_cents" bigint DEFAULT 0 NOT NULL,
	"monthly_hoa_cents" bigint DEFAULT 0 NOT NULL,
	"annual_flood_insurance_cents" bigint DEFAULT 0 NOT NULL,
	"target_closing_date" date,
	"assignee_id" text,
	"lender_name" text,
	"lender_loan_number" text,
	"internal_notes" text,
	"stage" text DEFAULT 'lead' NOT NULL,
	"left_from_stage" text,
	"stage_entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce(borrower_name, '') || ' ' || coalesce(borrower_email, '') || ' ' || coalesce(entity_name, '') || ' ' || coalesce(property_street, '') || ' ' || coalesce(property_unit, '') || ' ' || coalesce(property_city, '') || ' ' || coalesce(property_state, '') || ' ' || coalesce(property_zip, '') || ' ' || coalesce(lender_loan_number, ''))) STORED NOT NULL,
	CONSTRAINT "loan_stage_check" CHECK ("loan"."stage" in ('lead', 'application', 'borrower_invited', 'documents_collecting', 'appraisal_ordered', 'appraisal_received', 'underwriting', 'conditionally_approved', 'clear_to_close', 'closing_scheduled', 'funded', 'withdrawn', 'declined')),
	CONSTRAINT "loan_left_from_check" CHECK (("loan"."stage" in ('withdrawn', 'declined')) = ("loan"."left_from_stage" is not null)),
	CONSTRAINT "loan_property_type_check" CHECK ("loan"."property_type" in ('single_family', 'two_to_four', 'five_plus', 'condo', 'short_term_rental')),
	CONSTRAINT "loan_purpose_check" CHECK ("loan"."purpose" in ('purchase', 'rate_term_refinance', 'cash_out_refinance')),
	CONSTRAINT "loan_prepayment_check" CHECK ("loan"."prepayment_kind" in ('none', 'step_down', 'fixed')),
	CONSTRAINT "loan_money_check" CHECK ("loan"."value_cents" > 0 and "loan"."loan_amount_cents" > 0 and "loan"."note_rate_milli" > 0)
);
--> statement-breakpoint
CREATE TABLE "loan_participant" (
	"loan_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_participant_loan_id_user_id_pk" PRIMARY KEY("loan_id","user_id"),
	CONSTRAINT "loan_participant_role_check" CHECK ("loan_participant"."role" in ('borrower', 'co_borrower'))
);
--> statement-breakpoint
CREATE TABLE "stage_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"loan_id" uuid NOT NULL,
	"from_stage" text,
	"to_stage" text NOT NULL,
	"by_id" text,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invitation" DROP CONSTRAINT "invitation_role_check";--> statement-breakpoint
ALTER TABLE "invitation" DROP CONSTRAINT "invitation_team_check";--> statement-breakpoint
ALTER TABLE "invitation" ADD COLUMN "loan_id" uuid;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "dscr_strong_centi" integer DEFAULT 125 NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "dscr_eligible_centi" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "team_member" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity" ADD CONSTRAINT "activity_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_team_id_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_assignee_id_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan" ADD CONSTRAINT "loan_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_participant" ADD CONSTRAINT "loan_participant_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_participant" ADD CONSTRAINT "loan_participant_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_participant" ADD CONSTRAINT "loan_participant_invited_by_user_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_change" ADD CONSTRAINT "stage_change_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_change" ADD CONSTRAINT "stage_change_by_id_user_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_loan_idx" ON "activity" USING btree ("loan_id","id");--> statement-breakpoint
CREATE INDEX "loan_team_pipeline_idx" ON "loan" USING btree ("team_id","last_activity_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "loan_team_stage_idx" ON "loan" USING btree ("team_id","stage");--> statement-breakpoint
CREATE INDEX "loan_assignee_idx" ON "loan" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "loan_participant_user_idx" ON "loan_participant" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "stage_change_loan_idx" ON "stage_change" USING btree ("loan_id","id");--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitation_loan_id_idx" ON "invitation" USING btree ("loan_id");--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_loan_check" CHECK (("invitation"."role" in ('borrower', 'co_borrower')) = ("invitation"."loan_id" is not null));--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_role_check" CHECK ("invitation"."role" in ('platform_admin', 'broker', 'assistant', 'borrower', 'co_borrower'));--> statement-breakpoint
ALTER TABLE "invitation" ADD CONSTRAINT "invitation_team_check" CHECK (("invitation"."role" in ('assistant', 'borrower', 'co_borrower')) = ("invitation"."team_id" is not null));--> statement-breakpoint
ALTER TABLE "team" ADD CONSTRAINT "team_dscr_thresholds_check" CHECK ("team"."dscr_eligible_centi" > 0 and "team"."dscr_eligible_centi" <= "team"."dscr_strong_centi");