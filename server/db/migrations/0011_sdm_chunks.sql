CREATE TABLE `sdm_chunks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`fund_file_id` integer NOT NULL,
	`sdm_type` text NOT NULL,
	`first_line` integer NOT NULL,
	`last_line` integer NOT NULL,
	`row_count` integer NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`fund_file_id`) REFERENCES `fund_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sdm_chunks_file_idx` ON `sdm_chunks` (`fund_file_id`,`first_line`);--> statement-breakpoint
-- rows stored one JSON object a row move over as chunks of one row each (same file, line, values)
INSERT INTO `sdm_chunks` (`fund_file_id`, `sdm_type`, `first_line`, `last_line`, `row_count`, `data`)
SELECT r.`fund_file_id`, r.`sdm_type`, r.`line`, r.`line`, 1,
  json_object(
    'file', json_extract(r.`data`, '$.file'),
    'columns', (SELECT json_group_array(e.key) FROM json_each(r.`data`) e WHERE e.key <> 'file'),
    'rows', json_array((SELECT json_group_array(e.value) FROM json_each(r.`data`) e WHERE e.key <> 'file'))
  )
FROM `sdm_rows` r ORDER BY r.`id`;
