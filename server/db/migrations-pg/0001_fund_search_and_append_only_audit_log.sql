-- Fund search: the substring search of fund name, client and fund codes (the listing's global
-- search). SQLite has an FTS5 trigram table for it (migrations/0005_fund_search.sql); PostgreSQL
-- has pg_trgm: a GIN trigram index answers `ILIKE '%text%'` for texts of three characters or more.
-- pg_trgm is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "fund_requests_name_trgm_idx" ON "fund_requests" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "fund_requests_client_trgm_idx" ON "fund_requests" USING gin ("client" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "fund_codes_code_trgm_idx" ON "fund_codes" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
-- Append-only security audit log: entries are never changed or removed through the application.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update" BEFORE UPDATE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_log_no_delete" BEFORE DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
