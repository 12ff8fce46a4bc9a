-- The help centre (issue 36): FAQ articles (type 5) and notices (type 6) written by staff.
-- content_translations keeps the published text customers read; content_drafts a language's text
-- staff changed since, until it is published; content_revisions every save, publication and
-- withdrawal, append-only.

ALTER TABLE contents ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

CREATE TABLE content_drafts (
  content_id integer     NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
  language   text        NOT NULL CHECK (language IN ('en', 'ja', 'ko', 'de', 'fr', 'it', 'es', 'ar', 'hk', 'zh')),
  title      text        NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body       text        NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint      NOT NULL REFERENCES staff (id),
  PRIMARY KEY (content_id, language)
);

CREATE TABLE content_revisions (
  id         bigserial   PRIMARY KEY,
  content_id integer     NOT NULL REFERENCES contents (id),
  language   text        CHECK (language IN ('en', 'ja', 'ko', 'de', 'fr', 'it', 'es', 'ar', 'hk', 'zh')),
  action     text        NOT NULL CHECK (action IN ('created', 'draft', 'published', 'unpublished')),
  title      text,
  body       text,
  staff_id   bigint      NOT NULL REFERENCES staff (id),
  staff_email text       NOT NULL,
  at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX content_revisions_content_idx ON content_revisions (content_id, id);

-- Revisions are the record of what was written: never changed, never removed.
CREATE FUNCTION content_revisions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'content_revisions is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER content_revisions_append_only BEFORE UPDATE OR DELETE ON content_revisions
  FOR EACH ROW EXECUTE FUNCTION content_revisions_append_only();
