-- The sessions and challenges of some accounts found by account: SQLite's
-- migration 0015_accounts_indexes.sql says why.
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX challenges_by_account ON challenges (account_id);
CREATE INDEX challenges_by_opponent ON challenges (opponent_id);
