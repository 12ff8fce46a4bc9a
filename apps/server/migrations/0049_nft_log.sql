-- The charity donation log (modules/nft/log): an append-only Merkle log in the style of
-- certificate transparency (RFC 9162). Each row is a leaf: its fields and the exact bytes hashed
-- (leaf_data, the canonical encoding of packages/contract's transparency.ts). Leaves are numbered
-- 0, 1, 2, … without a gap; a row is never changed nor removed.
CREATE TABLE nft_donation_log (
  seq       bigint        PRIMARY KEY CHECK (seq >= 0),
  kind      text          NOT NULL CHECK (kind IN ('sale', 'payout')),
  drop_id   bigint        CHECK (drop_id > 0),
  token_id  numeric(78,0) CHECK (token_id >= 0),
  asset     text          NOT NULL CHECK (asset ~ '^[A-Z][A-Z0-9]{1,9}$'),
  amount    numeric(39,0) NOT NULL CHECK (amount > 0),
  tx_hash   text          CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
  at        timestamptz   NOT NULL,
  leaf_data bytea         NOT NULL
);
CREATE INDEX nft_donation_log_asset ON nft_donation_log (asset, kind);

CREATE FUNCTION nft_donation_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.seq <> (SELECT coalesce(max(seq) + 1, 0) FROM nft_donation_log) THEN
      RAISE EXCEPTION 'nft_donation_log leaves are numbered without a gap';
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'nft_donation_log is append-only';
END;
$$;
CREATE TRIGGER nft_donation_log_append_only BEFORE INSERT OR UPDATE OR DELETE ON nft_donation_log
  FOR EACH ROW EXECUTE FUNCTION nft_donation_log_append_only();
CREATE FUNCTION nft_donation_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'nft_donation_log is append-only';
END;
$$;
CREATE TRIGGER nft_donation_log_no_truncate BEFORE TRUNCATE ON nft_donation_log
  FOR EACH STATEMENT EXECUTE FUNCTION nft_donation_log_no_truncate();

-- The signed tree heads: the log's size and root at a time, Ed25519-signed (the
-- donation-log-signing key) over packages/contract's treeHeadMessage. Published, never changed.
CREATE TABLE nft_tree_heads (
  id         bigserial   PRIMARY KEY,
  size       bigint      NOT NULL CHECK (size >= 0),
  root       bytea       NOT NULL CHECK (length(root) = 32),
  signed_at  timestamptz NOT NULL,
  key_id     text        NOT NULL,
  public_key text        NOT NULL CHECK (public_key ~ '^[0-9a-f]{64}$'),
  signature  text        NOT NULL CHECK (signature ~ '^[0-9a-f]{128}$')
);
CREATE INDEX nft_tree_heads_size ON nft_tree_heads (size, signed_at);

CREATE FUNCTION nft_tree_heads_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'nft_tree_heads is append-only';
END;
$$;
CREATE TRIGGER nft_tree_heads_append_only BEFORE UPDATE OR DELETE ON nft_tree_heads
  FOR EACH ROW EXECUTE FUNCTION nft_tree_heads_append_only();
