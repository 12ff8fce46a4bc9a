-- Uploads: one table for every file a customer uploads, whatever feature takes it. The file is
-- checked by content and re-encoded before a row exists; the row names its owner and purpose
-- (a purpose of the contract's UPLOAD_PURPOSES: the list lives there, so a new purpose needs no
-- migration), keeps the private storage key (never sent to anyone) and, once a feature has taken
-- it, what took it. id is a random public id.
CREATE TABLE uploads (
  id           text        PRIMARY KEY CHECK (id ~ '^[a-f0-9]{24}$'),
  owner_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose      text        NOT NULL CHECK (purpose ~ '^[a-z][a-z0-9_]{1,39}$'),
  content_type text        NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  -- The stored file's bytes; NULL only for the KYC photos stored before this table existed.
  size         bigint      CHECK (size IS NULL OR size > 0),
  width        integer     NOT NULL CHECK (width > 0),
  height       integer     NOT NULL CHECK (height > 0),
  storage_key  text        NOT NULL UNIQUE CHECK (storage_key ~ '^[a-f0-9]{32}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- What took it (e.g. 'kyc:12'), and when: an upload is taken once.
  used_for     text        CHECK (used_for IS NULL OR used_for ~ '^[a-z_]{1,40}:[0-9]{1,19}$'),
  used_at      timestamptz,
  CHECK ((used_for IS NULL) = (used_at IS NULL))
);
CREATE INDEX uploads_unused_idx ON uploads (owner_id, purpose, created_at) WHERE used_at IS NULL;

-- A row only changes by being taken, once; owner, purpose and file never change.
CREATE FUNCTION uploads_take_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.used_at IS NOT NULL THEN
    RAISE EXCEPTION 'upload % is used and cannot change', OLD.id;
  END IF;
  IF NEW.owner_id <> OLD.owner_id OR NEW.purpose <> OLD.purpose OR NEW.storage_key <> OLD.storage_key
     OR NEW.content_type <> OLD.content_type OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'upload % cannot change owner, purpose or file', OLD.id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER uploads_take_once BEFORE UPDATE ON uploads
  FOR EACH ROW EXECUTE FUNCTION uploads_take_once();

-- The KYC photos stored so far become uploads, taken by their submission, under the same public
-- id (so links and audit rows keep naming them); kyc_photos keeps only which upload is which side.
INSERT INTO uploads (id, owner_id, purpose, content_type, size, width, height, storage_key, created_at, used_for, used_at)
SELECT p.id, s.user_id,
       CASE p.side WHEN 'front' THEN 'kyc_front' WHEN 'back' THEN 'kyc_back' ELSE 'kyc_in_hand' END,
       p.content_type, NULL, p.width, p.height, p.storage_key, s.submitted_at, 'kyc:' || s.id, s.submitted_at
FROM kyc_photos p JOIN kyc_submissions s ON s.id = p.submission_id;

ALTER TABLE kyc_photos RENAME COLUMN id TO upload_id;
ALTER TABLE kyc_photos ADD CONSTRAINT kyc_photos_upload_fkey FOREIGN KEY (upload_id) REFERENCES uploads (id);
ALTER TABLE kyc_photos DROP COLUMN storage_key, DROP COLUMN content_type, DROP COLUMN width, DROP COLUMN height;
