-- Who operates the platform (DESIGN §2 rule 9): one row, set by staff with the admin role in the
-- back office (every change audited). The settings are a JSON document validated by the contract's
-- operatorSettings schema on every write and read; no row means the sandbox default: nothing set.
CREATE TABLE operator_settings (
  id          smallint    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  settings    jsonb       NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  bigint      NOT NULL REFERENCES staff (id)
);

-- The first seeded legal and company pages carried bracketed placeholders ("[registered company
-- name]", "[regulator]", ...). Their text now fills these details from the settings at read time,
-- so translations still holding a placeholder are removed here and seeded again at start (text
-- staff completed has no brackets left and is kept).
DELETE FROM content_translations
WHERE body ~ '\[[^]]+\]'
  AND content_id IN (
    SELECT id FROM contents
    WHERE slug IN ('about', 'licence', 'legal', 'terms', 'privacy', 'cookies', 'disclaimer', 'risk', 'advertising')
  );

-- The support address is an operator setting now; the old default pointed at a .localhost host.
DELETE FROM system_params WHERE key = 'supportEmail' AND value = 'support@swx.localhost';
