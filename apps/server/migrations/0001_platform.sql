-- Platform tables: job runs, system parameters, content.

CREATE TABLE job_runs (
  job         text        NOT NULL,
  run_key     text        NOT NULL,
  status      text        NOT NULL CHECK (status IN ('running', 'done', 'failed')),
  node        text        NOT NULL,
  attempts    integer     NOT NULL DEFAULT 1,
  lease_until timestamptz NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  error       text,
  PRIMARY KEY (job, run_key)
);

-- Public parameters are readable by anyone through getParamByKey; the others only by staff.
CREATE TABLE system_params (
  key         text PRIMARY KEY CHECK (key ~ '^[A-Za-z][A-Za-z0-9_.-]{0,63}$'),
  value       text        NOT NULL,
  is_public   boolean     NOT NULL DEFAULT false,
  description text        NOT NULL DEFAULT '',
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per content item; its text per language lives in content_translations, so an item
-- keeps its id whatever the reader's language.
CREATE TABLE contents (
  id         serial PRIMARY KEY,
  slug       text     NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]{1,64}$'),
  type       smallint NOT NULL CHECK (type IN (1, 2, 3, 5, 6)),
  category   integer  NOT NULL DEFAULT 0,
  sort       integer  NOT NULL DEFAULT 0,
  published  boolean  NOT NULL DEFAULT true
);

CREATE TABLE content_translations (
  content_id integer     NOT NULL REFERENCES contents (id) ON DELETE CASCADE,
  language   text        NOT NULL CHECK (language IN ('en', 'ja', 'ko', 'de', 'fr', 'it', 'es', 'ar', 'hk', 'zh')),
  title      text        NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body       text        NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (content_id, language)
);

CREATE INDEX contents_type_idx ON contents (type, category, sort, id);
