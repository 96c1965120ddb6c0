CREATE TABLE "scorecard_facts" (
	"fund_request_id" integer NOT NULL,
	"stale" boolean DEFAULT true NOT NULL,
	"mark" integer DEFAULT 0 NOT NULL,
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
CREATE TABLE "scorecard_tallies" (
	"administrator_key" integer NOT NULL,
	"client" text NOT NULL,
	"month" text NOT NULL,
	"stale" boolean DEFAULT true NOT NULL,
	"mark" integer DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"completed_late" jsonb,
	"open_due" jsonb,
	"checked" integer DEFAULT 0 NOT NULL,
	"first_time_right" integer DEFAULT 0 NOT NULL,
	"re_deliveries" integer DEFAULT 0 NOT NULL,
	"chases_sent" integer DEFAULT 0 NOT NULL,
	"chases_open" integer DEFAULT 0 NOT NULL,
	"days_to_answer" jsonb,
	"refreshed_at" text,
	CONSTRAINT "scorecard_tallies_administrator_key_client_month_pk" PRIMARY KEY("administrator_key","client","month")
);
--> statement-breakpoint
ALTER TABLE "scorecard_facts" ADD CONSTRAINT "scorecard_facts_fund_request_id_fund_requests_id_fk" FOREIGN KEY ("fund_request_id") REFERENCES "public"."fund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scorecard_facts_stale_idx" ON "scorecard_facts" USING btree ("stale");--> statement-breakpoint
CREATE INDEX "scorecard_tallies_month_idx" ON "scorecard_tallies" USING btree ("month");--> statement-breakpoint
CREATE INDEX "scorecard_tallies_stale_idx" ON "scorecard_tallies" USING btree ("stale");--> statement-breakpoint
-- Written by hand (drizzle-kit writes no triggers; keep them when this migration is generated again):
-- a fund request's scorecard facts are stale once one of its delivery or chase events is recorded
-- or removed, one of its input files is marked (not) required or removed, or its job type changes,
-- in the same transaction (server/services/scorecards/facts.ts reads stale rows from the events);
-- `mark` counts the markings, so the refresher writes a row back only if none came while it computed it.
CREATE FUNCTION scorecard_facts_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scorecard_facts (fund_request_id, stale) VALUES (NEW.fund_request_id, true)
    ON CONFLICT (fund_request_id) DO UPDATE SET stale = true, mark = scorecard_facts.mark + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION scorecard_facts_mark_fund() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scorecard_facts (fund_request_id, stale) VALUES (NEW.id, true)
    ON CONFLICT (fund_request_id) DO UPDATE SET stale = true, mark = scorecard_facts.mark + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION scorecard_facts_mark_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scorecard_facts SET stale = true, mark = mark + 1 WHERE fund_request_id = OLD.fund_request_id;
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
INSERT INTO scorecard_facts (fund_request_id, stale) SELECT DISTINCT fund_request_id, true FROM chase_events ON CONFLICT (fund_request_id) DO NOTHING;--> statement-breakpoint
-- A bucket of scorecard_tallies (TPA, client, month of data due dates) is stale once the facts of
-- one of its requests are marked stale, or a request joins or leaves it: added, removed, or its
-- status, data due date, TPA, client or parent changed (a parent's bucket too: a request with
-- child funds is not counted).
CREATE FUNCTION scorecard_tallies_mark(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO scorecard_tallies (administrator_key, client, month, stale)
  SELECT DISTINCT coalesce(f.administrator_id, 0), f.client, substr(f.due_date, 1, 7), true FROM fund_requests f
  WHERE f.id = ANY(ids) AND f.due_date IS NOT NULL
  ON CONFLICT (administrator_key, client, month) DO UPDATE SET stale = true, mark = scorecard_tallies.mark + 1;
$$;--> statement-breakpoint
CREATE FUNCTION scorecard_tallies_facts_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM scorecard_tallies_mark(ARRAY[NEW.fund_request_id]);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION scorecard_tallies_fund() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.due_date IS NOT NULL THEN
    INSERT INTO scorecard_tallies (administrator_key, client, month, stale) VALUES (coalesce(OLD.administrator_id, 0), OLD.client, substr(OLD.due_date, 1, 7), true) ON CONFLICT (administrator_key, client, month) DO UPDATE SET stale = true, mark = scorecard_tallies.mark + 1;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM scorecard_tallies_mark(ARRAY[NEW.id, NEW.parent_id]);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM scorecard_tallies_mark(ARRAY[NEW.id, OLD.parent_id, NEW.parent_id]);
  ELSE
    PERFORM scorecard_tallies_mark(ARRAY[OLD.parent_id]);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER scorecard_tallies_facts_stale AFTER INSERT OR UPDATE OF stale ON scorecard_facts FOR EACH ROW
  WHEN (NEW.stale) EXECUTE FUNCTION scorecard_tallies_facts_stale();--> statement-breakpoint
CREATE TRIGGER scorecard_tallies_fund_added AFTER INSERT ON fund_requests FOR EACH ROW EXECUTE FUNCTION scorecard_tallies_fund();--> statement-breakpoint
CREATE TRIGGER scorecard_tallies_fund_changed AFTER UPDATE OF status, due_date, administrator_id, client, parent_id ON fund_requests FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.due_date IS DISTINCT FROM NEW.due_date OR OLD.administrator_id IS DISTINCT FROM NEW.administrator_id
    OR OLD.client IS DISTINCT FROM NEW.client OR OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION scorecard_tallies_fund();--> statement-breakpoint
CREATE TRIGGER scorecard_tallies_fund_removed AFTER DELETE ON fund_requests FOR EACH ROW EXECUTE FUNCTION scorecard_tallies_fund();--> statement-breakpoint
INSERT INTO scorecard_tallies (administrator_key, client, month, stale) SELECT DISTINCT coalesce(administrator_id, 0), client, substr(due_date, 1, 7), true FROM fund_requests WHERE due_date IS NOT NULL ON CONFLICT (administrator_key, client, month) DO NOTHING;
