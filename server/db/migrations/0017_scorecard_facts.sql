CREATE TABLE `scorecard_facts` (
	`fund_request_id` integer PRIMARY KEY NOT NULL,
	`stale` integer DEFAULT true NOT NULL,
	`mark` integer DEFAULT 0 NOT NULL,
	`completed_at` text,
	`re_deliveries` integer DEFAULT 0 NOT NULL,
	`first_time_right` integer,
	`chases_sent` integer DEFAULT 0 NOT NULL,
	`chases_open` integer DEFAULT 0 NOT NULL,
	`days_to_answer` text,
	`refreshed_at` text,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scorecard_facts_stale_idx` ON `scorecard_facts` (`stale`);--> statement-breakpoint
CREATE TABLE `scorecard_tallies` (
	`administrator_key` integer NOT NULL,
	`client` text NOT NULL,
	`month` text NOT NULL,
	`stale` integer DEFAULT true NOT NULL,
	`mark` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`completed_late` text,
	`open_due` text,
	`checked` integer DEFAULT 0 NOT NULL,
	`first_time_right` integer DEFAULT 0 NOT NULL,
	`re_deliveries` integer DEFAULT 0 NOT NULL,
	`chases_sent` integer DEFAULT 0 NOT NULL,
	`chases_open` integer DEFAULT 0 NOT NULL,
	`days_to_answer` text,
	`refreshed_at` text,
	PRIMARY KEY(`administrator_key`, `client`, `month`)
);
--> statement-breakpoint
CREATE INDEX `scorecard_tallies_month_idx` ON `scorecard_tallies` (`month`);--> statement-breakpoint
CREATE INDEX `scorecard_tallies_stale_idx` ON `scorecard_tallies` (`stale`);--> statement-breakpoint
-- Written by hand (drizzle-kit writes no triggers; keep them when this migration is generated again):
-- a fund request's scorecard facts are stale once one of its delivery or chase events is recorded
-- or removed, one of its input files is marked (not) required or removed, or its job type changes,
-- in the same transaction (server/services/scorecards/facts.ts reads stale rows from the events);
-- `mark` counts the markings, so the refresher writes a row back only if none came while it computed it.
CREATE TRIGGER `scorecard_facts_delivery_event` AFTER INSERT ON `delivery_events` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_chase_event` AFTER INSERT ON `chase_events` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_delivery_event_removed` AFTER DELETE ON `delivery_events` BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1, `mark` = `mark` + 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_chase_event_removed` AFTER DELETE ON `chase_events` BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1, `mark` = `mark` + 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_input_required` AFTER UPDATE OF `disabled` ON `fund_files` WHEN NEW.`kind` = 'input' AND OLD.`disabled` IS NOT NEW.`disabled` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_input_removed` AFTER DELETE ON `fund_files` WHEN OLD.`kind` = 'input' BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1, `mark` = `mark` + 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_job_type` AFTER UPDATE OF `job_type` ON `fund_requests` WHEN OLD.`job_type` IS NOT NEW.`job_type` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) SELECT DISTINCT `fund_request_id`, 1 FROM `delivery_events` WHERE true ON CONFLICT (`fund_request_id`) DO NOTHING;--> statement-breakpoint
INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) SELECT DISTINCT `fund_request_id`, 1 FROM `chase_events` WHERE true ON CONFLICT (`fund_request_id`) DO NOTHING;--> statement-breakpoint
-- A bucket of `scorecard_tallies` (TPA, client, month of data due dates) is stale once the facts of
-- one of its requests are marked stale, or a request joins or leaves it: added, removed, or its
-- status, data due date, TPA, client or parent changed (a parent's bucket too: a request with
-- child funds is not counted).
CREATE TRIGGER `scorecard_tallies_facts_stale` AFTER UPDATE OF `stale` ON `scorecard_facts` WHEN NEW.`stale` = 1 BEGIN
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(f.`administrator_id`, 0), f.`client`, substr(f.`due_date`, 1, 7), 1 FROM `fund_requests` f WHERE f.`id` = NEW.`fund_request_id` AND f.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_tallies_facts_added` AFTER INSERT ON `scorecard_facts` WHEN NEW.`stale` = 1 BEGIN
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(f.`administrator_id`, 0), f.`client`, substr(f.`due_date`, 1, 7), 1 FROM `fund_requests` f WHERE f.`id` = NEW.`fund_request_id` AND f.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_tallies_fund_added` AFTER INSERT ON `fund_requests` BEGIN
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(f.`administrator_id`, 0), f.`client`, substr(f.`due_date`, 1, 7), 1 FROM `fund_requests` f WHERE f.`id` IN (NEW.`id`, NEW.`parent_id`) AND f.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_tallies_fund_changed` AFTER UPDATE OF `status`, `due_date`, `administrator_id`, `client`, `parent_id` ON `fund_requests`
  WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`due_date` IS NOT NEW.`due_date` OR OLD.`administrator_id` IS NOT NEW.`administrator_id` OR OLD.`client` IS NOT NEW.`client` OR OLD.`parent_id` IS NOT NEW.`parent_id` BEGIN
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(OLD.`administrator_id`, 0), OLD.`client`, substr(OLD.`due_date`, 1, 7), 1 WHERE OLD.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(f.`administrator_id`, 0), f.`client`, substr(f.`due_date`, 1, 7), 1 FROM `fund_requests` f WHERE f.`id` IN (NEW.`id`, OLD.`parent_id`, NEW.`parent_id`) AND f.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_tallies_fund_removed` AFTER DELETE ON `fund_requests` BEGIN
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(OLD.`administrator_id`, 0), OLD.`client`, substr(OLD.`due_date`, 1, 7), 1 WHERE OLD.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
  INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT coalesce(f.`administrator_id`, 0), f.`client`, substr(f.`due_date`, 1, 7), 1 FROM `fund_requests` f WHERE f.`id` = OLD.`parent_id` AND f.`due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO UPDATE SET `stale` = 1, `mark` = `mark` + 1;
END;--> statement-breakpoint
INSERT INTO `scorecard_tallies` (`administrator_key`, `client`, `month`, `stale`) SELECT DISTINCT coalesce(`administrator_id`, 0), `client`, substr(`due_date`, 1, 7), 1 FROM `fund_requests` WHERE `due_date` IS NOT NULL ON CONFLICT (`administrator_key`, `client`, `month`) DO NOTHING;
