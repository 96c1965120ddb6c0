CREATE TABLE `privacy_acceptances` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`version` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token_hash` text NOT NULL,
	`label` text,
	`expires_at` text NOT NULL,
	`used_at` text,
	`revoked_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tokens_token_hash_unique` ON `tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `tokens_user_idx` ON `tokens` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`original_role` text NOT NULL,
	`accepted_privacy_version` text,
	`disabled` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `administrators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`region` text,
	`self_onboarded` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `administrators_code_unique` ON `administrators` (`code`);--> statement-breakpoint
CREATE TABLE `reference_data` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`list` text NOT NULL,
	`code` text NOT NULL,
	`alt_code` text NOT NULL,
	`deprecated` integer DEFAULT false NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reference_data_list_code` ON `reference_data` (`list`,`code`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fund_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`code` text NOT NULL,
	`main` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_codes_unique` ON `fund_codes` (`fund_request_id`,`code`);--> statement-breakpoint
CREATE INDEX `fund_codes_code_idx` ON `fund_codes` (`code`);--> statement-breakpoint
CREATE TABLE `fund_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer,
	`name` text NOT NULL,
	`client` text NOT NULL,
	`gfis_client_code` text,
	`status` text DEFAULT 'Pending' NOT NULL,
	`status_before_delete` text,
	`country` text,
	`ey_country` text,
	`currency` text,
	`structure` text,
	`fund_sub_type` text,
	`audit_type` text,
	`job_type` text,
	`accounting_standard` text,
	`period_start` text,
	`period_end` text,
	`due_date` text,
	`audit_start_date` text,
	`nav_close_date` text,
	`request_date` text,
	`financial_year` text,
	`accounting_period` text,
	`engagement_code` text,
	`output_type` text,
	`external_valuations` text DEFAULT 'N' NOT NULL,
	`price_type_1` text,
	`price_type_2` text,
	`price_type_3` text,
	`price_type_4` text,
	`price_source_1` text,
	`price_source_2` text,
	`price_source_3` text,
	`pm` real,
	`te` real,
	`sad` real,
	`connected_audit` integer DEFAULT false NOT NULL,
	`rtt_plus` real,
	`rtt_minus` real,
	`soi_rec_type` text,
	`fihi_type` text,
	`has_investment_analyzer` integer DEFAULT false NOT NULL,
	`aggreg_consol_flag` text,
	`group_key` text,
	`group_work_papers` integer DEFAULT false NOT NULL,
	`parent_id` integer,
	`is_parent` integer DEFAULT false NOT NULL,
	`aggreg_force_run` integer DEFAULT false NOT NULL,
	`needs_rerun` integer DEFAULT false NOT NULL,
	`audit_comments` text,
	`administrator_comments` text,
	`delivery_comments` text,
	`notes` text,
	`data_request_status` text DEFAULT 'NotRequested' NOT NULL,
	`self_onboarded` integer DEFAULT false NOT NULL,
	`fund_administrator_contact` text,
	`auditor_email_1` text,
	`auditor_email_2` text,
	`auditor_email_3` text,
	`auditor_email_4` text,
	`pped_email` text,
	`tpa_mailbox` text,
	`fr_tpa_contact` text,
	`ta_tpa_mailbox` text,
	`rerun_count` integer DEFAULT 0 NOT NULL,
	`rerun_by_id` integer,
	`rerun_by_role` text,
	`rerun_date` text,
	`created_by_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`rerun_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `fund_requests_status_idx` ON `fund_requests` (`status`);--> statement-breakpoint
CREATE INDEX `fund_requests_admin_period_idx` ON `fund_requests` (`administrator_id`,`period_end`);--> statement-breakpoint
CREATE INDEX `fund_requests_due_idx` ON `fund_requests` (`due_date`);--> statement-breakpoint
CREATE INDEX `fund_requests_request_date_idx` ON `fund_requests` (`request_date`);--> statement-breakpoint
CREATE TABLE `recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`full_name` text DEFAULT '' NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `saved_filters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`title` text NOT NULL,
	`filter` text NOT NULL,
	`fixed` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `trail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer,
	`user_id` integer,
	`action` text NOT NULL,
	`before` text,
	`after` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trail_fund_idx` ON `trail` (`fund_request_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `fund_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`import_file_id` integer,
	`source_file_id` integer,
	`kind` text NOT NULL,
	`file_type` text NOT NULL,
	`file_name` text NOT NULL,
	`blob_key` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`reviewed` integer DEFAULT false NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`released` integer DEFAULT false NOT NULL,
	`row_count` integer,
	`validation_status` text,
	`validation` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`import_file_id`) REFERENCES `import_files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `fund_files_fund_idx` ON `fund_files` (`fund_request_id`,`kind`);--> statement-breakpoint
CREATE TABLE `import_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer,
	`file_name` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`type` text,
	`sub_type` text,
	`source` text DEFAULT 'upload' NOT NULL,
	`status` text DEFAULT 'Awaiting' NOT NULL,
	`payload` text,
	`user_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `import_files_sha_idx` ON `import_files` (`sha256`);--> statement-breakpoint
CREATE INDEX `import_files_admin_idx` ON `import_files` (`administrator_id`);--> statement-breakpoint
CREATE TABLE `pbi_input_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pbi_input_type` text NOT NULL,
	`file_name` text NOT NULL,
	`blob_key` text NOT NULL,
	`uploaded_by_id` integer,
	`token_expiry_date` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`uploaded_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `swept_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`original_file_name` text NOT NULL,
	`administrator_id` integer,
	`import_file_id` integer,
	`file_uploader_real_name` text,
	`file_uploader_email` text,
	`file_path_on_moveit` text NOT NULL,
	`file_upload_date` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`import_file_id`) REFERENCES `import_files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `unidentified_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_file_id` integer,
	`file_name` text NOT NULL,
	`administrator_id` integer,
	`assigned_to_id` integer,
	`action` text,
	`user_id` integer,
	`errors` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`import_file_id`) REFERENCES `import_files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_to_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `unmatched_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_file_id` integer,
	`file_name` text NOT NULL,
	`file_type` text NOT NULL,
	`fund_code` text,
	`fund_id` integer,
	`administrator_id` integer,
	`assigned_to_id` integer,
	`action` text,
	`user_id` integer,
	`payload` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`import_file_id`) REFERENCES `import_files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`fund_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assigned_to_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `export_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`payload` text,
	`blob_key` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `fund_mappings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer NOT NULL,
	`mapping_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`mapping_id`) REFERENCES `mappings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fund_mappings_unique` ON `fund_mappings` (`fund_request_id`,`mapping_id`);--> statement-breakpoint
CREATE TABLE `mappings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer NOT NULL,
	`type` text NOT NULL,
	`kind` text NOT NULL,
	`description` text NOT NULL,
	`client_name` text,
	`rationale` text,
	`user_id` integer,
	`rows` text NOT NULL,
	`sha256` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mappings_admin_type_idx` ON `mappings` (`administrator_id`,`type`);--> statement-breakpoint
CREATE TABLE `orchestration_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer,
	`stage` text NOT NULL,
	`status` text NOT NULL,
	`type` text,
	`sub_type` text,
	`payload` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `orchestration_logs_fund_idx` ON `orchestration_logs` (`fund_request_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `processes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_request_id` integer,
	`stage` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`force_run` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`worker_id` text,
	`input_hash` text,
	`payload` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`started_at` text,
	`finished_at` text,
	`created_by_id` integer,
	FOREIGN KEY (`fund_request_id`) REFERENCES `fund_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `processes_status_idx` ON `processes` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `processes_fund_idx` ON `processes` (`fund_request_id`,`stage`);--> statement-breakpoint
CREATE TABLE `sdm_upload_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sdm_upload_id` integer NOT NULL,
	`import_file_id` integer,
	`file_name` text NOT NULL,
	`status` text DEFAULT 'Uploading' NOT NULL,
	`type` text NOT NULL,
	`sub_type` text,
	`errors` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`sdm_upload_id`) REFERENCES `sdm_uploads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sdm_uploads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`administrator_id` integer,
	`status` text DEFAULT 'Created' NOT NULL,
	`force_run` integer DEFAULT false NOT NULL,
	`user_id` integer,
	`validation_results` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`administrator_id`) REFERENCES `administrators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `test_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`administrator_codes` text NOT NULL,
	`test_ids` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`has_errors` integer DEFAULT false NOT NULL,
	`results` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
