ALTER TABLE `tokens` ADD `view_role` text;--> statement-breakpoint
ALTER TABLE `tokens` ADD `id_token` text;--> statement-breakpoint
ALTER TABLE `users` ADD `external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_external_id_unique` ON `users` (`external_id`);--> statement-breakpoint
-- The view switch now belongs to each session: every user's own role is the original one again.
UPDATE `users` SET `role` = `original_role`;