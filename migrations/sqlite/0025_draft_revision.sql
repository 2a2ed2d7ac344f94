-- The draft's revision: 1 for a new workflow, one more on every save of the draft (PUT
-- draft, restore of a version, an AI patch import), so an editor can save on the condition
-- that nobody saved since it loaded the draft (If-Match; docs/workflows.md).
ALTER TABLE workflows ADD COLUMN draft_revision INTEGER NOT NULL DEFAULT 1;
