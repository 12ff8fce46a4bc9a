-- Private files in the database (platform/storage.postgres.ts): uploads and generated documents
-- every node reaches, the default store when DATABASE_URL is set (FILE_STORE picks another).
-- The key is the store's random 128-bit key (32 hex digits); nothing here is ever served as is.
CREATE TABLE stored_files (
  key text PRIMARY KEY CHECK (key ~ '^[a-f0-9]{32}$'),
  content_type text NOT NULL CHECK (length(content_type) BETWEEN 1 AND 200),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
