CREATE TABLE `delivery_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`kind` text NOT NULL,
	`at` text NOT NULL,
	`file_type` text,
	`file_name` text,
	`fund_file_id` integer,
	`import_file_id` integer,
	`outcome` text,
	`failed_checks` text,
	`inputs` text,
	`complete` integer,
	`first_delivery` integer,
	`source` text DEFAULT 'pipeline' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_events_fund_idx` ON `delivery_events` (`fund_request_id`,`kind`,`file_type`,`at`,`fund_file_id`);--> statement-breakpoint
CREATE INDEX `delivery_events_at_idx` ON `delivery_events` (`at`);--> statement-breakpoint
ALTER TABLE `users` ADD `client` text;