-- pg_trgm (a contrib extension of PostgreSQL; PGlite loads it in db/client.ts) for the pipeline search index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "loan_team_stage_idx";--> statement-breakpoint
CREATE INDEX "loan_team_stage_archived_idx" ON "loan" USING btree ("team_id","stage","archived_at");--> statement-breakpoint
CREATE INDEX "loan_search_trgm_idx" ON "loan" USING gin ("search_text" gin_trgm_ops);