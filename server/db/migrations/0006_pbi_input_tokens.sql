ALTER TABLE `pbi_input_files` ADD `size` integer;--> statement-breakpoint
ALTER TABLE `pbi_input_files` ADD `row_count` integer;--> statement-breakpoint
ALTER TABLE `pbi_input_files` ADD `token_id` integer REFERENCES tokens(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `pbi_input_files` ADD `token_hint` text;--> statement-breakpoint
CREATE INDEX `pbi_input_files_created_idx` ON `pbi_input_files` (`created_at`);