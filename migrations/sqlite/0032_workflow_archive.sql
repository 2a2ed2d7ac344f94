-- When a workflow was archived, NULL while it is not: an archived workflow leaves the
-- project's default list, and the trigger index answers none of its triggers.
ALTER TABLE workflows ADD COLUMN archived_at DATETIME NULL;
