CREATE TABLE `scorecard_facts` (
	`fund_request_id` integer PRIMARY KEY NOT NULL,
	`stale` integer DEFAULT true NOT NULL,
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
-- Written by hand (drizzle-kit writes no triggers; keep them when this migration is generated again):
-- a fund request's scorecard facts are stale once one of its delivery or chase events is recorded
-- or removed, one of its input files is marked (not) required or removed, or its job type changes,
-- in the same transaction (server/services/scorecards/facts.ts reads stale rows from the events).
CREATE TRIGGER `scorecard_facts_delivery_event` AFTER INSERT ON `delivery_events` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_chase_event` AFTER INSERT ON `chase_events` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_delivery_event_removed` AFTER DELETE ON `delivery_events` BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_chase_event_removed` AFTER DELETE ON `chase_events` BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_input_required` AFTER UPDATE OF `disabled` ON `fund_files` WHEN NEW.`kind` = 'input' AND OLD.`disabled` IS NOT NEW.`disabled` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`fund_request_id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_input_removed` AFTER DELETE ON `fund_files` WHEN OLD.`kind` = 'input' BEGIN
  UPDATE `scorecard_facts` SET `stale` = 1 WHERE `fund_request_id` = OLD.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `scorecard_facts_job_type` AFTER UPDATE OF `job_type` ON `fund_requests` WHEN OLD.`job_type` IS NOT NEW.`job_type` BEGIN
  INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) VALUES (NEW.`id`, 1) ON CONFLICT (`fund_request_id`) DO UPDATE SET `stale` = 1;
END;--> statement-breakpoint
INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) SELECT DISTINCT `fund_request_id`, 1 FROM `delivery_events` WHERE true ON CONFLICT (`fund_request_id`) DO NOTHING;--> statement-breakpoint
INSERT INTO `scorecard_facts` (`fund_request_id`, `stale`) SELECT DISTINCT `fund_request_id`, 1 FROM `chase_events` WHERE true ON CONFLICT (`fund_request_id`) DO NOTHING;
