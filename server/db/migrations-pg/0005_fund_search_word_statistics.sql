-- Word statistics of fund names and clients for the listing's search (server/db/pg/frequent-words.ts):
-- ANALYZE (autovacuum's too) keeps each expression's most common words with the share of rows
-- holding them, and the search leaves such words out of its trigram index lookups. Statistics on
-- an expression need PostgreSQL 14; on 13 none is made and the search looks up whole texts.
DO $$
BEGIN
  IF current_setting('server_version_num')::int >= 140000 THEN
    EXECUTE 'CREATE STATISTICS IF NOT EXISTS "fund_requests_name_words" ON (to_tsvector(''simple'', "name")) FROM "fund_requests"';
    EXECUTE 'CREATE STATISTICS IF NOT EXISTS "fund_requests_client_words" ON (to_tsvector(''simple'', "client")) FROM "fund_requests"';
  END IF;
END $$;--> statement-breakpoint
ANALYZE "fund_requests";
