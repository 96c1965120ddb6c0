CREATE INDEX `fund_requests_parent_idx` ON `fund_requests` (`parent_id`);--> statement-breakpoint
CREATE INDEX `fund_requests_status_request_idx` ON `fund_requests` (`status`,`request_date`);--> statement-breakpoint
CREATE INDEX `fund_requests_client_name_idx` ON `fund_requests` (`client`,`name`);