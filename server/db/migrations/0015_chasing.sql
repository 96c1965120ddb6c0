CREATE TABLE `chase_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chase_id` integer NOT NULL,
	`fund_request_id` integer NOT NULL,
	`administrator_id` integer,
	`client` text,
	`reason` text NOT NULL,
	`state` text NOT NULL,
	`at` text NOT NULL,
	`actor_id` integer,
	`actor` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`details` text,
	FOREIGN KEY (`chase_id`) REFERENCES `chases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chase_events_at_idx` ON `chase_events` (`at`);--> statement-breakpoint
CREATE INDEX `chase_events_chase_idx` ON `chase_events` (`chase_id`,`at`);--> statement-breakpoint
CREATE INDEX `chase_events_fund_idx` ON `chase_events` (`fund_request_id`,`at`);--> statement-breakpoint
CREATE INDEX `chase_events_admin_idx` ON `chase_events` (`administrator_id`,`at`);--> statement-breakpoint
CREATE TABLE `chase_mails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`to_email` text NOT NULL,
	`to_name` text DEFAULT '' NOT NULL,
	`time_zone` text,
	`chase_ids` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`attachments` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`message_id` text NOT NULL,
	`sent_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `chase_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chase_mails_idempotency_key_unique` ON `chase_mails` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `chase_mails_status_idx` ON `chase_mails` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `chase_mails_run_idx` ON `chase_mails` (`run_id`);--> statement-breakpoint
CREATE TABLE `chase_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`chase_id` integer NOT NULL,
	`run_id` integer NOT NULL,
	`mail_id` integer NOT NULL,
	`to_email` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`chase_id`) REFERENCES `chases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `chase_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`mail_id`) REFERENCES `chase_mails`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chase_notices_unique` ON `chase_notices` (`chase_id`,`run_id`,`to_email`);--> statement-breakpoint
CREATE INDEX `chase_notices_mail_idx` ON `chase_notices` (`mail_id`);--> statement-breakpoint
CREATE TABLE `chase_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`as_of` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`trigger` text NOT NULL,
	`counts` text,
	`error` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	`created_by_id` integer,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chase_runs_started_idx` ON `chase_runs` (`created_at`);--> statement-breakpoint
CREATE TABLE `chase_schedules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer NOT NULL,
	`offsets` text NOT NULL,
	`escalate_from` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`updated_by_id` integer,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chase_schedules_administrator_id_unique` ON `chase_schedules` (`administrator_id`);--> statement-breakpoint
CREATE TABLE `chases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`administrator_id` integer,
	`client` text,
	`reason` text NOT NULL,
	`key` text NOT NULL,
	`state` text DEFAULT 'scheduled' NOT NULL,
	`fund_file_id` integer,
	`message` text DEFAULT '' NOT NULL,
	`evidence` text NOT NULL,
	`evidence_blob_key` text,
	`recipients` text NOT NULL,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`next_reminder_on` text,
	`last_sent_at` text,
	`answered_at` text,
	`closed_at` text,
	`created_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`fund_file_id`) REFERENCES `fund_files`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `chases_fund_idx` ON `chases` (`fund_request_id`,`state`);--> statement-breakpoint
CREATE INDEX `chases_state_next_idx` ON `chases` (`state`,`next_reminder_on`);--> statement-breakpoint
CREATE INDEX `chases_admin_idx` ON `chases` (`administrator_id`,`state`);--> statement-breakpoint
CREATE UNIQUE INDEX `chases_open_key_unique` ON `chases` (`fund_request_id`,`key`) WHERE state in ('scheduled', 'sent', 'answered');--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer,
	`client` text,
	`full_name` text DEFAULT '' NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`time_zone` text,
	`source` text DEFAULT 'manual' NOT NULL,
	`created_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contacts_admin_idx` ON `contacts` (`administrator_id`);--> statement-breakpoint
CREATE INDEX `contacts_client_idx` ON `contacts` (`client`);--> statement-breakpoint
CREATE INDEX `contacts_email_idx` ON `contacts` (`email`);