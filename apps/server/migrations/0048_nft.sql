-- Charity NFTs (modules/nft): the charities, the drops (one ERC-721 token each, sold at a fixed
-- price or by auction), the bids (each a ledger hold on the bidder's wallet), the NFTs customers
-- own, and the payouts from the charity account (one staff member proposes, another decides).

CREATE TABLE nft_charities (
  id         bigserial   PRIMARY KEY,
  name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  address    text        NOT NULL CHECK (address ~ '^0x[0-9a-f]{40}$'),
  created_by text        NOT NULL,
  created_at timestamptz NOT NULL
);

-- A drop. `state`: draft (made) → listed (minted, on sale from starts_at) → sold | unsold. The
-- leading bid, its amount and the bid count are kept here, under the drop's row lock, by the bid
-- writer: a bid reads and changes them in the ledger batch that places its hold. `ends_at` moves
-- forward only (a late bid), or to the second of a purchase or a buy-now bid.
CREATE TABLE nft_drops (
  id                bigserial     PRIMARY KEY,
  book              text          NOT NULL CHECK (book IN ('demo', 'live')),
  name              text          NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  description       text          NOT NULL CHECK (length(description) <= 2000),
  creator           text          NOT NULL CHECK (length(creator) BETWEEN 1 AND 80),
  artwork_upload_id text          NOT NULL CHECK (artwork_upload_id ~ '^[a-f0-9]{24}$'),
  charity_id        bigint        NOT NULL REFERENCES nft_charities (id),
  charity_share_bps integer       NOT NULL CHECK (charity_share_bps BETWEEN 0 AND 10000),
  platform_fee_bps  integer       NOT NULL CHECK (platform_fee_bps BETWEEN 0 AND 10000),
  asset             text          NOT NULL REFERENCES ledger_assets (code),
  sale_type         text          NOT NULL CHECK (sale_type IN ('fixed', 'auction')),
  start_price       numeric(78,0) NOT NULL CHECK (start_price > 0),
  reserve           numeric(78,0) CHECK (reserve IS NULL OR reserve >= start_price),
  min_increment_bps integer       NOT NULL CHECK (min_increment_bps BETWEEN 1 AND 10000),
  buy_now           numeric(78,0) CHECK (buy_now IS NULL OR buy_now >= start_price),
  duration_seconds  integer       CHECK (duration_seconds IS NULL OR duration_seconds > 0),
  starts_at         timestamptz,
  ends_at           timestamptz,
  state             text          NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'listed', 'sold', 'unsold')),
  token_id          numeric(78,0),
  contract_address  text,
  mint_tx_hash      text,
  minted_at         timestamptz,
  leader_bid_id     bigint,
  current_bid       numeric(78,0),
  bid_count         integer       NOT NULL DEFAULT 0,
  buyer_id          bigint        REFERENCES users (id),
  entry_id          bigint,
  settled_at        timestamptz,
  created_by        text          NOT NULL,
  created_at        timestamptz   NOT NULL,
  CHECK (charity_share_bps + platform_fee_bps = 10000),
  CHECK (sale_type = 'auction' OR (reserve IS NULL AND buy_now IS NULL)),
  CHECK (state = 'draft' OR (starts_at IS NOT NULL AND minted_at IS NOT NULL)),
  CHECK ((state IN ('sold', 'unsold')) = (settled_at IS NOT NULL)),
  CHECK ((state = 'sold') = (entry_id IS NOT NULL AND buyer_id IS NOT NULL))
);
CREATE INDEX nft_drops_market_idx ON nft_drops (book, id DESC) WHERE state <> 'draft';
-- The settlement runner's work: listed drops whose end has passed, soonest first.
CREATE INDEX nft_drops_due_idx ON nft_drops (ends_at, id) WHERE state = 'listed';

-- A bid (an auction's, or a purchase: one bid that ends the sale). `hold_id` is its ledger hold;
-- `hold_state` follows the hold: held → voided (outbid, refused, lost) | posted (won).
-- state: leading → outbid | won | lost; refused (did not beat the minimum, or the sale was closed:
-- its hold is voided at once).
CREATE TABLE nft_bids (
  id          bigserial     PRIMARY KEY,
  drop_id     bigint        NOT NULL REFERENCES nft_drops (id),
  user_id     bigint        NOT NULL REFERENCES users (id),
  book        text          NOT NULL CHECK (book IN ('demo', 'live')),
  amount      numeric(78,0) NOT NULL CHECK (amount > 0),
  hold_id     bigint        NOT NULL UNIQUE,
  request_id  text          NOT NULL CHECK (request_id ~ '^[A-Za-z0-9_-]{8,64}$'),
  kind        text          NOT NULL CHECK (kind IN ('bid', 'buy')),
  state       text          NOT NULL CHECK (state IN ('leading', 'outbid', 'won', 'lost', 'refused')),
  reason      text          CHECK (reason IS NULL OR reason IN ('too_low', 'closed', 'leading')),
  hold_state  text          NOT NULL DEFAULT 'held' CHECK (hold_state IN ('held', 'voided', 'posted')),
  ends_after  timestamptz   NOT NULL,
  created_at  timestamptz   NOT NULL,
  UNIQUE (user_id, book, request_id),
  CHECK ((state = 'refused') = (reason IS NOT NULL))
);
CREATE INDEX nft_bids_drop_idx ON nft_bids (drop_id, id DESC);
CREATE INDEX nft_bids_user_idx ON nft_bids (user_id, book, id DESC);
-- Holds still to void (an outbid, refused or lost bid whose void has not run yet).
CREATE INDEX nft_bids_to_void_idx ON nft_bids (id) WHERE hold_state = 'held' AND state IN ('outbid', 'lost', 'refused');

-- An NFT a customer owns, from the sale's entry: held → sending → sent (to an address, on chain).
CREATE TABLE nft_holdings (
  id              bigserial     PRIMARY KEY,
  drop_id         bigint        NOT NULL UNIQUE REFERENCES nft_drops (id),
  user_id         bigint        NOT NULL REFERENCES users (id),
  book            text          NOT NULL CHECK (book IN ('demo', 'live')),
  price           numeric(78,0) NOT NULL CHECK (price > 0),
  donation        numeric(78,0) NOT NULL CHECK (donation >= 0),
  fee             numeric(78,0) NOT NULL CHECK (fee >= 0),
  entry_id        bigint        NOT NULL,
  log_index       bigint,
  acquired_at     timestamptz   NOT NULL,
  state           text          NOT NULL DEFAULT 'held' CHECK (state IN ('held', 'sending', 'sent')),
  sent_to         text,
  send_request_id text,
  tx_hash         text,
  sent_at         timestamptz,
  CHECK (price = donation + fee),
  CHECK ((state = 'held') = (sent_to IS NULL))
);
CREATE INDEX nft_holdings_user_idx ON nft_holdings (user_id, book, id DESC);

-- A payout from the live charity account to a charity's address: proposed by one staff member,
-- approved (posted, sent, logged) or rejected by another.
CREATE TABLE nft_payouts (
  id          bigserial     PRIMARY KEY,
  charity_id  bigint        NOT NULL REFERENCES nft_charities (id),
  asset       text          NOT NULL REFERENCES ledger_assets (code),
  amount      numeric(78,0) NOT NULL CHECK (amount > 0),
  state       text          NOT NULL DEFAULT 'proposed' CHECK (state IN ('proposed', 'approved', 'sent', 'rejected')),
  proposed_by bigint        NOT NULL REFERENCES staff (id),
  decided_by  bigint        REFERENCES staff (id),
  reason      text,
  entry_id    bigint,
  tx_hash     text,
  log_index   bigint,
  created_at  timestamptz   NOT NULL,
  decided_at  timestamptz,
  CHECK (decided_by IS NULL OR decided_by <> proposed_by)
);
