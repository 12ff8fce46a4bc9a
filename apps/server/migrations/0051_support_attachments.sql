-- The chat's attachments (modules/support, issue 36) from visitors and agents as well as customers,
-- and PDF documents beside pictures (modules/uploads).
--
-- An upload's owner is a customer (`owner_id`) or, for those who are not customers, a reference
-- the taking module names (`owner_ref`: 'support_visitor:12', 'staff:3'); exactly one of them.
ALTER TABLE uploads ALTER COLUMN owner_id DROP NOT NULL;
ALTER TABLE uploads ADD COLUMN owner_ref text
  CHECK (owner_ref IS NULL OR owner_ref ~ '^[a-z_]{1,30}:[0-9]{1,19}$');
ALTER TABLE uploads ADD CONSTRAINT uploads_one_owner CHECK ((owner_id IS NULL) <> (owner_ref IS NULL));
CREATE INDEX uploads_unused_ref_idx ON uploads (owner_ref, purpose, created_at)
  WHERE used_at IS NULL AND owner_ref IS NOT NULL;

-- A PDF, rebuilt page by page without actions, scripts, forms or attachments (uploads.pdf.ts); its
-- width and height are the first page's, in points.
ALTER TABLE uploads DROP CONSTRAINT uploads_content_type_check;
ALTER TABLE uploads ADD CONSTRAINT uploads_content_type_check
  CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf'));

-- Taken once, and owner, purpose and file never change (now with the second kind of owner).
CREATE OR REPLACE FUNCTION uploads_take_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.used_at IS NOT NULL THEN
    RAISE EXCEPTION 'upload % is used and cannot change', OLD.id;
  END IF;
  IF NEW.owner_id IS DISTINCT FROM OLD.owner_id OR NEW.owner_ref IS DISTINCT FROM OLD.owner_ref
     OR NEW.purpose <> OLD.purpose OR NEW.storage_key <> OLD.storage_key
     OR NEW.content_type <> OLD.content_type OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'upload % cannot change owner, purpose or file', OLD.id;
  END IF;
  RETURN NEW;
END $$;

-- Each agent's limit of conversations open at once is set by staff (audited by the support
-- module); who set it last, and when.
ALTER TABLE support_agents ADD COLUMN limit_set_by bigint REFERENCES staff (id);
ALTER TABLE support_agents ADD COLUMN limit_set_at timestamptz;

-- The attachment lines a participant asks for by upload id.
CREATE INDEX support_messages_attachment_idx ON support_messages (attachment) WHERE attachment IS NOT NULL;
