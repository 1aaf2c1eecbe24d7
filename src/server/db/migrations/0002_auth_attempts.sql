CREATE TABLE "auth_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_attempt_key_at_idx" ON "auth_attempt" USING btree ("key","at");