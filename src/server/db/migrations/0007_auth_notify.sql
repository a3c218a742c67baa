-- Every backend caches callers by session token (src/server/services/session-cache.ts). These
-- triggers tell every backend on the database, on commit, that a cached caller may be stale: a
-- session signed out or removed, or an account whose fields a caller carries changed. A trigger
-- rather than a call in each service, so no write path can forget it.
CREATE FUNCTION desk_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    PERFORM pg_notify('desk_auth', 'session:' || OLD.token_hash);
  ELSE
    PERFORM pg_notify('desk_auth', 'account:' || OLD.id::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_auth_notify AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION desk_auth_notify();
--> statement-breakpoint
CREATE TRIGGER accounts_auth_notify AFTER UPDATE OF username, display_name, role, parent_id, path, depth, timezone, share_bps, credit_limit, password_hash OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION desk_auth_notify();
