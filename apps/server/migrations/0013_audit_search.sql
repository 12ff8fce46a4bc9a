-- The back office's audit log screen filters by actor and by subject, newest first: an index for
-- each, ending in seq so a page (seq < cursor ORDER BY seq DESC) reads only what it shows.
CREATE INDEX audit_log_actor_seq_idx ON audit_log (actor, seq);
CREATE INDEX audit_log_subject_seq_idx ON audit_log (subject, seq);
