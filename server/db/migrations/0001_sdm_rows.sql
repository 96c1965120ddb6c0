CREATE TABLE `sdm_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_file_id` integer NOT NULL,
	`sdm_type` text NOT NULL,
	`line` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`fund_file_id`) REFERENCES `fund_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sdm_rows_file_idx` ON `sdm_rows` (`fund_file_id`,`line`);