-- How many days ahead the billing cycle bills a project's services (a project setting,
-- PATCH /projects/{project_id}).
ALTER TABLE projects ADD COLUMN billing_horizon_days INTEGER NOT NULL DEFAULT 7;
