CREATE TABLE "document_file" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"upload_id" uuid,
	"version_id" uuid,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"object_key" text NOT NULL,
	"wrapped_key" "bytea" NOT NULL,
	"preview_object_key" text,
	"preview_wrapped_key" "bytea",
	"preview_size" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_file_objectKey_unique" UNIQUE("object_key"),
	CONSTRAINT "document_file_previewObjectKey_unique" UNIQUE("preview_object_key"),
	CONSTRAINT "document_file_one_owner" CHECK (("document_file"."upload_id" is null) <> ("document_file"."version_id" is null))
);
--> statement-breakpoint
CREATE TABLE "document_upload" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"created_by" text,
	"link_id" uuid,
	"files" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_version" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"uploaded_by" text,
	"uploaded_by_link" uuid,
	"uploader_name" text NOT NULL,
	"uploaded_as" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"review" text DEFAULT 'pending' NOT NULL,
	"review_reason" text,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"document_date" date,
	CONSTRAINT "document_version_item_number" UNIQUE("item_id","number"),
	CONSTRAINT "document_version_review_check" CHECK ("document_version"."review" in ('pending', 'in_review', 'approved', 'needs_revision')),
	CONSTRAINT "document_version_uploaded_as_check" CHECK ("document_version"."uploaded_as" in ('team', 'borrower', 'third_party'))
);
--> statement-breakpoint
CREATE TABLE "upload_link" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"item_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "upload_link_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "document_file" ADD CONSTRAINT "document_file_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_file" ADD CONSTRAINT "document_file_item_id_checklist_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."checklist_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_file" ADD CONSTRAINT "document_file_upload_id_document_upload_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."document_upload"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_file" ADD CONSTRAINT "document_file_version_id_document_version_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."document_version"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_upload" ADD CONSTRAINT "document_upload_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_upload" ADD CONSTRAINT "document_upload_item_id_checklist_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."checklist_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_upload" ADD CONSTRAINT "document_upload_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_upload" ADD CONSTRAINT "document_upload_link_id_upload_link_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."upload_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_version" ADD CONSTRAINT "document_version_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_version" ADD CONSTRAINT "document_version_item_id_checklist_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."checklist_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_version" ADD CONSTRAINT "document_version_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_version" ADD CONSTRAINT "document_version_uploaded_by_link_upload_link_id_fk" FOREIGN KEY ("uploaded_by_link") REFERENCES "public"."upload_link"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_version" ADD CONSTRAINT "document_version_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_link" ADD CONSTRAINT "upload_link_loan_id_loan_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loan"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_link" ADD CONSTRAINT "upload_link_item_id_checklist_item_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."checklist_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_link" ADD CONSTRAINT "upload_link_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_file_version_idx" ON "document_file" USING btree ("version_id","position");--> statement-breakpoint
CREATE INDEX "document_file_upload_idx" ON "document_file" USING btree ("upload_id","position");--> statement-breakpoint
CREATE INDEX "document_file_loan_idx" ON "document_file" USING btree ("loan_id");--> statement-breakpoint
CREATE INDEX "document_version_loan_idx" ON "document_version" USING btree ("loan_id");--> statement-breakpoint
CREATE INDEX "upload_link_item_idx" ON "upload_link" USING btree ("item_id");