DROP INDEX `fund_requests_status_request_idx`;--> statement-breakpoint
DROP INDEX `fund_requests_status_due_idx`;--> statement-breakpoint
CREATE INDEX `fund_requests_status_request_idx` ON `fund_requests` (`status`,`request_date`,`name`,`client`);--> statement-breakpoint
CREATE INDEX `fund_requests_status_due_idx` ON `fund_requests` (`status`,`due_date`,`name`,`client`);