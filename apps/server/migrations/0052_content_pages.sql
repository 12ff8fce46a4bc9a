-- The company and policy pages on the staff editor (issue 36): their text becomes the help
-- centre's markup. The old page text made a block's first line its heading ("Heading\nline\nline");
-- it becomes a markup heading of its own ("## Heading", a blank line, then the lines). Text
-- already in markup (with a "## " heading) is left alone. Staff's images of articles and pages are
-- uploads owned by `staff:<id>` (owner_ref, migration 0051), taken by `content:<id>`.

UPDATE content_translations t SET body = regexp_replace(
    t.body, '(^|\n\n)((?:\{\?!?[A-Za-z]+\})*)([^\n]+)\n(?!\n)', E'\\1\\2## \\3\n\n', 'g')
  FROM contents c
  WHERE c.id = t.content_id AND c.type IN (1, 2, 3) AND t.body !~ '(^|\n)(\{\?!?[A-Za-z]+\})*## ';

-- The images a content item's texts have taken: an image belongs to one item (the upload is taken
-- by `content:<id>`), and any of that item's texts may show it again. Customers are served one
-- only while a published text of a published item shows it (content.help.ts).
CREATE TABLE content_images (
  upload_id  text        PRIMARY KEY REFERENCES uploads (id),
  content_id integer     NOT NULL REFERENCES contents (id),
  staff_id   bigint      NOT NULL REFERENCES staff (id),
  taken_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX content_images_content_idx ON content_images (content_id);
