-- The language a user reads the product's own messages in (the desktop inbox's notices):
-- the one the account was registered in, changed through PATCH /api/v1/auth/profile.
ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
