CREATE TABLE `adjustments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`type` text NOT NULL,
	`description` text NOT NULL,
	`booked_by_tpa` integer DEFAULT false NOT NULL,
	`lines` text NOT NULL,
	`author_id` integer,
	`author` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `adjustments_fund_idx` ON `adjustments` (`fund_request_id`);