-- A session's scope (agent-api.ts, sessionScope): every session before this one was the desk's.
ALTER TABLE "sessions" ADD COLUMN "scope" text DEFAULT 'desk' NOT NULL;
