CREATE TABLE "scorecard_facts" (
	"fund_request_id" integer NOT NULL,
	"stale" boolean DEFAULT true NOT NULL,
	"completed_at" text,
	"re_deliveries" integer DEFAULT 0 NOT NULL,
	"first_time_right" boolean,
	"chases_sent" integer DEFAULT 0 NOT NULL,
	"chases_open" integer DEFAULT 0 NOT NULL,
	"days_to_answer" jsonb,
	"refreshed_at" text,
	CONSTRAINT "scorecard_facts_fund_request_id_pk" PRIMARY KEY("fund_request_id")
);
--> statement-breakpoint
ALTER TABLE "scorecard_facts" ADD CONSTRAINT "scorecard_facts_fund_request_id_fund_requests_id_fk" FOREIGN KEY ("fund_request_id") REFERENCES "public"."fund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scorecard_facts_stale_idx" ON "scorecard_facts" USING btree ("stale");--> statement-breakpoint
-- Written by hand (drizzle-kit writes no triggers; keep them when this migration is generated again):
-- a fund request's scorecard facts are stale once one of its delivery or chase events is recorded
-- or removed, one of its input files is marked (not) required or removed, or its job type changes,
-- in the same transaction (server/services/scorecards/facts.ts reads stale rows from the events).
CREATE FUNCTION scorecard_facts_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scorecard_facts (fund_request_id, stale) VALUES (NEW.fund_request_id, true)
    ON CONFLICT (fund_request_id) DO UPDATE SET stale = true;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION scorecard_facts_mark_fund() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scorecard_facts (fund_request_id, stale) VALUES (NEW.id, true)
    ON CONFLICT (fund_request_id) DO UPDATE SET stale = true;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION scorecard_facts_mark_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scorecard_facts SET stale = true WHERE fund_request_id = OLD.fund_request_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER scorecard_facts_delivery_event AFTER INSERT ON delivery_events FOR EACH ROW EXECUTE FUNCTION scorecard_facts_mark();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_chase_event AFTER INSERT ON chase_events FOR EACH ROW EXECUTE FUNCTION scorecard_facts_mark();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_delivery_event_removed AFTER DELETE ON delivery_events FOR EACH ROW EXECUTE FUNCTION scorecard_facts_mark_removed();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_chase_event_removed AFTER DELETE ON chase_events FOR EACH ROW EXECUTE FUNCTION scorecard_facts_mark_removed();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_input_required AFTER UPDATE OF disabled ON fund_files FOR EACH ROW
  WHEN (NEW.kind = 'input' AND OLD.disabled IS DISTINCT FROM NEW.disabled) EXECUTE FUNCTION scorecard_facts_mark();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_input_removed AFTER DELETE ON fund_files FOR EACH ROW
  WHEN (OLD.kind = 'input') EXECUTE FUNCTION scorecard_facts_mark_removed();--> statement-breakpoint
CREATE TRIGGER scorecard_facts_job_type AFTER UPDATE OF job_type ON fund_requests FOR EACH ROW
  WHEN (OLD.job_type IS DISTINCT FROM NEW.job_type) EXECUTE FUNCTION scorecard_facts_mark_fund();--> statement-breakpoint
INSERT INTO scorecard_facts (fund_request_id, stale) SELECT DISTINCT fund_request_id, true FROM delivery_events ON CONFLICT (fund_request_id) DO NOTHING;--> statement-breakpoint
INSERT INTO scorecard_facts (fund_request_id, stale) SELECT DISTINCT fund_request_id, true FROM chase_events ON CONFLICT (fund_request_id) DO NOTHING;
