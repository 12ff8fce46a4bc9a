-- Daily settlement of products (modules/products/settlement.ts): one row per (product, book, UTC
-- day) once that day is settled, or while its source cannot cover it (staff alerted once, the
-- alert named here). The payments themselves are ledger entries; this is the runner's record of
-- which days are done, so a rerun of a settled day changes nothing and a missed day is caught up.
CREATE TABLE settlement_days (
  product    text          NOT NULL CHECK (product ~ '^[a-z][a-z0-9_.-]{1,39}$'),
  book       text          NOT NULL CHECK (book IN ('demo', 'live')),
  day        date          NOT NULL,
  status     text          NOT NULL CHECK (status IN ('settled', 'unfunded')),
  payments   integer       NOT NULL DEFAULT 0 CHECK (payments >= 0),
  paid_minor numeric(78,0) NOT NULL DEFAULT 0 CHECK (paid_minor >= 0),
  alert_id   bigint,
  updated_at timestamptz   NOT NULL DEFAULT now(),
  PRIMARY KEY (product, book, day)
);
