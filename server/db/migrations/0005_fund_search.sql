-- Fund search index: one row per fund request (rowid = fund id) with its name, client and fund
-- codes (one a line), trigram-tokenised so a substring search reads the index instead of every row.
-- Kept up to date by the triggers below; the listing still checks each candidate with LIKE.
CREATE VIRTUAL TABLE `fund_search` USING fts5(`name`, `client`, `codes`, tokenize = 'trigram');--> statement-breakpoint
INSERT INTO `fund_search` (`rowid`, `name`, `client`, `codes`)
  SELECT f.`id`, f.`name`, f.`client`, (SELECT group_concat(c.`code`, char(10)) FROM `fund_codes` c WHERE c.`fund_request_id` = f.`id`) FROM `fund_requests` f;--> statement-breakpoint
CREATE TRIGGER `fund_search_fund_insert` AFTER INSERT ON `fund_requests` BEGIN
  INSERT INTO `fund_search` (`rowid`, `name`, `client`, `codes`)
    VALUES (new.`id`, new.`name`, new.`client`, (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = new.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `fund_search_fund_update` AFTER UPDATE OF `id`, `name`, `client` ON `fund_requests` BEGIN
  DELETE FROM `fund_search` WHERE `rowid` = old.`id`;
  INSERT INTO `fund_search` (`rowid`, `name`, `client`, `codes`)
    VALUES (new.`id`, new.`name`, new.`client`, (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = new.`id`));
END;--> statement-breakpoint
CREATE TRIGGER `fund_search_fund_delete` AFTER DELETE ON `fund_requests` BEGIN
  DELETE FROM `fund_search` WHERE `rowid` = old.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `fund_search_code_insert` AFTER INSERT ON `fund_codes` BEGIN
  UPDATE `fund_search` SET `codes` = (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = new.`fund_request_id`) WHERE `rowid` = new.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `fund_search_code_update` AFTER UPDATE OF `fund_request_id`, `code` ON `fund_codes` BEGIN
  UPDATE `fund_search` SET `codes` = (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = old.`fund_request_id`) WHERE `rowid` = old.`fund_request_id`;
  UPDATE `fund_search` SET `codes` = (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = new.`fund_request_id`) WHERE `rowid` = new.`fund_request_id`;
END;--> statement-breakpoint
CREATE TRIGGER `fund_search_code_delete` AFTER DELETE ON `fund_codes` BEGIN
  UPDATE `fund_search` SET `codes` = (SELECT group_concat(`code`, char(10)) FROM `fund_codes` WHERE `fund_request_id` = old.`fund_request_id`) WHERE `rowid` = old.`fund_request_id`;
END;
