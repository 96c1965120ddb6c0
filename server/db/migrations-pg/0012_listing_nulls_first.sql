DROP INDEX "fund_requests_due_idx";--> statement-breakpoint
DROP INDEX "fund_requests_request_date_idx";--> statement-breakpoint
DROP INDEX "fund_requests_status_request_idx";--> statement-breakpoint
DROP INDEX "fund_requests_status_due_idx";--> statement-breakpoint
CREATE INDEX "fund_requests_due_idx" ON "fund_requests" USING btree ("due_date" NULLS FIRST);--> statement-breakpoint
CREATE INDEX "fund_requests_request_date_idx" ON "fund_requests" USING btree ("request_date" NULLS FIRST);--> statement-breakpoint
CREATE INDEX "fund_requests_status_request_idx" ON "fund_requests" USING btree ("status","request_date" NULLS FIRST,"name","client");--> statement-breakpoint
CREATE INDEX "fund_requests_status_due_idx" ON "fund_requests" USING btree ("status","due_date" NULLS FIRST,"name","client");