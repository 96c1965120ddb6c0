-- Fund search with the status filter in the same index (server/db/pg/fund-search.ts): a GIN index
-- over status (btree_gin) and the trigrams of name and client, beside the trigram indexes of
-- migration 0001. A search with a status filter (the listing's usual views) asks it for both at
-- once where the text is in many rows; before, the planner ANDed the name's matches with a bitmap
-- of every fund of that status (333,620 of 1,000,000 funds for Open: most of the query). A text in
-- few rows is still read from the name and client indexes alone, which is cheaper than walking the
-- status's long list in this one. btree_gin, like pg_trgm, is a trusted extension: the database's
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "fund_requests_search_idx" ON "fund_requests" USING gin ("status", "name" gin_trgm_ops, "client" gin_trgm_ops);
