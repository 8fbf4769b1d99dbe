-- A server that hears that another changed some accounts reads what those
-- accounts have (`load_accounts_of`): their sessions and the challenges
-- that name them are found by account, not by reading the whole tables.
-- A password change ends an account's other sessions by account too.
CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX challenges_by_account ON challenges (account_id);
CREATE INDEX challenges_by_opponent ON challenges (opponent_id);
