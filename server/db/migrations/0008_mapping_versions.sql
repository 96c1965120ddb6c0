CREATE TABLE `mapping_version_uses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mapping_version_id` integer NOT NULL,
	`fund_request_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`mapping_version_id`) REFERENCES `mapping_versions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mapping_version_uses_unique` ON `mapping_version_uses` (`mapping_version_id`,`fund_request_id`);--> statement-breakpoint
CREATE INDEX `mapping_version_uses_fund_idx` ON `mapping_version_uses` (`fund_request_id`);--> statement-breakpoint
CREATE TABLE `mapping_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mapping_id` integer NOT NULL,
	`version` integer NOT NULL,
	`sha256` text NOT NULL,
	`rows` text NOT NULL,
	`user_id` integer,
	`reason` text NOT NULL,
	`file_name` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`mapping_id`) REFERENCES `mappings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mapping_versions_unique` ON `mapping_versions` (`mapping_id`,`version`);--> statement-breakpoint
ALTER TABLE `mappings` ADD `version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
INSERT INTO `mapping_versions` (`mapping_id`, `version`, `sha256`, `rows`, `user_id`, `reason`, `created_at`) SELECT `id`, 1, `sha256`, `rows`, `user_id`, coalesce(`rationale`, 'content before versions were kept'), `updated_at` FROM `mappings`;
