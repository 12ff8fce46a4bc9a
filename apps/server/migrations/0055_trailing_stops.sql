-- Trailing stops (issue 38): a stop that follows a favourable move at a stated distance (in ticks)
-- and never moves back. The level is where it stands now: the trigger engine moves it on ticks and
-- writes it on a cadence and at the close (it only ever tightens here: GREATEST for a long, LEAST
-- for a short). Both are null for a position without one.
ALTER TABLE positions
  ADD COLUMN trailing_distance_ticks numeric(40,0) CHECK (trailing_distance_ticks > 0),
  ADD COLUMN trailing_level_ticks numeric(40,0) CHECK (trailing_level_ticks >= 0),
  ADD CONSTRAINT positions_trailing_both
    CHECK ((trailing_distance_ticks IS NULL) = (trailing_level_ticks IS NULL));

ALTER TABLE positions DROP CONSTRAINT positions_close_reason_check;
ALTER TABLE positions ADD CONSTRAINT positions_close_reason_check
  CHECK (close_reason IN ('manual', 'take_profit', 'stop_loss', 'stop_out', 'expiry', 'signal', 'drawdown', 'trailing_stop'));
