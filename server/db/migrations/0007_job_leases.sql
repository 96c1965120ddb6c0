CREATE TABLE `node_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`node_id` text NOT NULL,
	`name` text NOT NULL,
	`data` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `node_events_created_idx` ON `node_events` (`created_at`);--> statement-breakpoint
CREATE TABLE `nodes` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`hostname` text NOT NULL,
	`pid` integer NOT NULL,
	`url` text,
	`workers` integer DEFAULT 0 NOT NULL,
	`started_at` text NOT NULL,
	`heartbeat_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `processes` ADD `lease_expires_at` integer;