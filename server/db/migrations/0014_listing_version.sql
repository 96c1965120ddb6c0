-- The listing's data version on SQLite (server/services/funds/data-version.ts): one counter that
-- every insert, update and delete of a table the fund listings, their counts and their search read
-- moves, in the same transaction (so a rollback leaves it where it was), whatever the connection
-- or process. Writes no listing reads leave it alone, so the listing cache stays valid while the
-- pipeline stores standardized rows (`sdm_chunks`), renews job leases
-- (`processes.lease_expires_at`), logs, records events and node heartbeats, signs users in:
-- `sdm_chunks`, `node_events`, `orchestration_logs`, `audit_log`, `nodes`, `tokens`, `trail`.
-- Every other table has the three triggers (data-version.test.ts checks it).
CREATE TABLE `listing_version` (`id` integer PRIMARY KEY CHECK (`id` = 1), `version` integer NOT NULL);--> statement-breakpoint
INSERT INTO `listing_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `listing_version_adjustments_insert` AFTER INSERT ON `adjustments` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_adjustments_update` AFTER UPDATE ON `adjustments` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_adjustments_delete` AFTER DELETE ON `adjustments` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_administrators_insert` AFTER INSERT ON `administrators` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_administrators_update` AFTER UPDATE ON `administrators` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_administrators_delete` AFTER DELETE ON `administrators` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_export_files_insert` AFTER INSERT ON `export_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_export_files_update` AFTER UPDATE ON `export_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_export_files_delete` AFTER DELETE ON `export_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_codes_insert` AFTER INSERT ON `fund_codes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_codes_update` AFTER UPDATE ON `fund_codes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_codes_delete` AFTER DELETE ON `fund_codes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_files_insert` AFTER INSERT ON `fund_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_files_update` AFTER UPDATE ON `fund_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_files_delete` AFTER DELETE ON `fund_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_mappings_insert` AFTER INSERT ON `fund_mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_mappings_update` AFTER UPDATE ON `fund_mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_mappings_delete` AFTER DELETE ON `fund_mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_requests_insert` AFTER INSERT ON `fund_requests` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_requests_update` AFTER UPDATE ON `fund_requests` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_fund_requests_delete` AFTER DELETE ON `fund_requests` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_import_files_insert` AFTER INSERT ON `import_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_import_files_update` AFTER UPDATE ON `import_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_import_files_delete` AFTER DELETE ON `import_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_version_uses_insert` AFTER INSERT ON `mapping_version_uses` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_version_uses_update` AFTER UPDATE ON `mapping_version_uses` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_version_uses_delete` AFTER DELETE ON `mapping_version_uses` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_versions_insert` AFTER INSERT ON `mapping_versions` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_versions_update` AFTER UPDATE ON `mapping_versions` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mapping_versions_delete` AFTER DELETE ON `mapping_versions` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mappings_insert` AFTER INSERT ON `mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mappings_update` AFTER UPDATE ON `mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_mappings_delete` AFTER DELETE ON `mappings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_pbi_input_files_insert` AFTER INSERT ON `pbi_input_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_pbi_input_files_update` AFTER UPDATE ON `pbi_input_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_pbi_input_files_delete` AFTER DELETE ON `pbi_input_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_privacy_acceptances_insert` AFTER INSERT ON `privacy_acceptances` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_privacy_acceptances_update` AFTER UPDATE ON `privacy_acceptances` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_privacy_acceptances_delete` AFTER DELETE ON `privacy_acceptances` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_processes_insert` AFTER INSERT ON `processes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_processes_update` AFTER UPDATE OF `id`, `fund_request_id`, `stage`, `status`, `force_run`, `attempts`, `worker_id`, `input_hash`, `payload`, `created_at`, `started_at`, `finished_at`, `created_by_id` ON `processes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_processes_delete` AFTER DELETE ON `processes` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_recipients_insert` AFTER INSERT ON `recipients` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_recipients_update` AFTER UPDATE ON `recipients` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_recipients_delete` AFTER DELETE ON `recipients` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_reference_data_insert` AFTER INSERT ON `reference_data` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_reference_data_update` AFTER UPDATE ON `reference_data` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_reference_data_delete` AFTER DELETE ON `reference_data` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_saved_filters_insert` AFTER INSERT ON `saved_filters` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_saved_filters_update` AFTER UPDATE ON `saved_filters` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_saved_filters_delete` AFTER DELETE ON `saved_filters` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_upload_files_insert` AFTER INSERT ON `sdm_upload_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_upload_files_update` AFTER UPDATE ON `sdm_upload_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_upload_files_delete` AFTER DELETE ON `sdm_upload_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_uploads_insert` AFTER INSERT ON `sdm_uploads` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_uploads_update` AFTER UPDATE ON `sdm_uploads` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_sdm_uploads_delete` AFTER DELETE ON `sdm_uploads` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_settings_insert` AFTER INSERT ON `settings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_settings_update` AFTER UPDATE ON `settings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_settings_delete` AFTER DELETE ON `settings` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_swept_files_insert` AFTER INSERT ON `swept_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_swept_files_update` AFTER UPDATE ON `swept_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_swept_files_delete` AFTER DELETE ON `swept_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_test_runs_insert` AFTER INSERT ON `test_runs` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_test_runs_update` AFTER UPDATE ON `test_runs` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_test_runs_delete` AFTER DELETE ON `test_runs` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unidentified_files_insert` AFTER INSERT ON `unidentified_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unidentified_files_update` AFTER UPDATE ON `unidentified_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unidentified_files_delete` AFTER DELETE ON `unidentified_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unmatched_files_insert` AFTER INSERT ON `unmatched_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unmatched_files_update` AFTER UPDATE ON `unmatched_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_unmatched_files_delete` AFTER DELETE ON `unmatched_files` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_users_insert` AFTER INSERT ON `users` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_users_update` AFTER UPDATE ON `users` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `listing_version_users_delete` AFTER DELETE ON `users` BEGIN
  UPDATE `listing_version` SET `version` = `version` + 1;
END;
