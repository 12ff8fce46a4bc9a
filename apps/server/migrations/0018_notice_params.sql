-- Notices render in the reader's current language: the kind and its parameters are kept, and
-- the text is made from them when read. notice_content stays as written at creation (in the
-- language of that moment); older notices, which have no parameters, are shown with it.
ALTER TABLE notices ADD COLUMN params jsonb CHECK (params IS NULL OR jsonb_typeof(params) = 'object');
