-- pg_trgm backs the fuzzy name search; PGlite loads it as a bundled extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"display_name" text NOT NULL,
	"search_name" text NOT NULL,
	"role" text NOT NULL,
	"parent_id" uuid,
	"path" text NOT NULL,
	"depth" integer NOT NULL,
	"share_bps" integer DEFAULT 0 NOT NULL,
	"commission_bps" integer DEFAULT 0 NOT NULL,
	"credit_limit" bigint DEFAULT 0 NOT NULL,
	"timezone" text NOT NULL,
	"notes" text,
	"password_hash" text,
	"large_bet_threshold" bigint DEFAULT 1000000 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "accounts_share_bps_range" CHECK ("accounts"."share_bps" between 0 and 10000),
	CONSTRAINT "accounts_commission_bps_range" CHECK ("accounts"."commission_bps" between 0 and 10000),
	CONSTRAINT "accounts_credit_limit_nonneg" CHECK ("accounts"."credit_limit" >= 0),
	CONSTRAINT "accounts_parent_unless_admin" CHECK (("accounts"."role" = 'platform_admin') = ("accounts"."parent_id" is null))
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_id" uuid NOT NULL,
	"action" text NOT NULL,
	"target_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"request_id" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"player_id" uuid NOT NULL,
	"market_id" uuid NOT NULL,
	"outcome_id" uuid NOT NULL,
	"side" text NOT NULL,
	"stake" bigint NOT NULL,
	"odds" integer NOT NULL,
	"status" text NOT NULL,
	"placed_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"result" bigint,
	CONSTRAINT "bets_stake_positive" CHECK ("bets"."stake" > 0),
	CONSTRAINT "bets_odds_above_evens" CHECK ("bets"."odds" > 100)
);
--> statement-breakpoint
CREATE TABLE "book_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_mutes" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"muted" boolean NOT NULL,
	CONSTRAINT "event_mutes_account_id_kind_pk" PRIMARY KEY("account_id","kind")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"recipient_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fixtures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sport" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"home_team_id" uuid NOT NULL,
	"away_team_id" uuid NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"procedure" text NOT NULL,
	"key" text NOT NULL,
	"params_hash" text NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_procedure_key_pk" PRIMARY KEY("account_id","procedure","key")
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"account_id" uuid NOT NULL,
	"counterparty_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"market_id" uuid,
	"bet_id" uuid,
	"settlement_id" uuid
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"fixture_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"winner_outcome_id" uuid,
	"settled_at" timestamp with time zone,
	"ordinal" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outcomes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"market_id" uuid NOT NULL,
	"name" text NOT NULL,
	"ordinal" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "player_limits" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"per_click_win" bigint NOT NULL,
	"aggregate_daily_win" bigint NOT NULL,
	"min_stake" bigint NOT NULL,
	CONSTRAINT "player_limits_nonneg" CHECK ("player_limits"."per_click_win" >= 0 and "player_limits"."aggregate_daily_win" >= 0),
	CONSTRAINT "player_limits_min_stake" CHECK ("player_limits"."min_stake" >= 100 and "player_limits"."min_stake" <= "player_limits"."per_click_win")
);
--> statement-breakpoint
CREATE TABLE "report_artifacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"template" text NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"child_id" uuid NOT NULL,
	"parent_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"take_before" bigint NOT NULL,
	"take_after" bigint NOT NULL,
	"mode" text NOT NULL,
	"period_id" text,
	"created_by" uuid NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "settlements_amount_nonzero" CHECK ("settlements"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"short_codes" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_player_id_accounts_id_fk" FOREIGN KEY ("player_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_outcome_id_outcomes_id_fk" FOREIGN KEY ("outcome_id") REFERENCES "outcomes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_mutes" ADD CONSTRAINT "event_mutes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_recipient_id_accounts_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_home_team_id_teams_id_fk" FOREIGN KEY ("home_team_id") REFERENCES "teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_away_team_id_teams_id_fk" FOREIGN KEY ("away_team_id") REFERENCES "teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_counterparty_id_accounts_id_fk" FOREIGN KEY ("counterparty_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_fixture_id_fixtures_id_fk" FOREIGN KEY ("fixture_id") REFERENCES "fixtures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outcomes" ADD CONSTRAINT "outcomes_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_limits" ADD CONSTRAINT "player_limits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD CONSTRAINT "report_artifacts_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_child_id_accounts_id_fk" FOREIGN KEY ("child_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_parent_id_accounts_id_fk" FOREIGN KEY ("parent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_username_key" ON "accounts" USING btree ("username");--> statement-breakpoint
CREATE INDEX "accounts_parent_idx" ON "accounts" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "accounts_path_idx" ON "accounts" USING btree ("path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "accounts_search_trgm_idx" ON "accounts" USING gin ("search_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "audit_actor_idx" ON "audit_log" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "bets_player_placed_idx" ON "bets" USING btree ("player_id","placed_at");--> statement-breakpoint
CREATE INDEX "bets_market_idx" ON "bets" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "bets_open_idx" ON "bets" USING btree ("market_id") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_placed_idx" ON "bets" USING btree ("placed_at");--> statement-breakpoint
CREATE INDEX "events_recipient_idx" ON "events" USING btree ("recipient_id","id");--> statement-breakpoint
CREATE INDEX "fixtures_starts_idx" ON "fixtures" USING btree ("starts_at");--> statement-breakpoint
CREATE INDEX "fixtures_search_trgm_idx" ON "fixtures" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ledger_pair_idx" ON "ledger" USING btree ("account_id","counterparty_id");--> statement-breakpoint
CREATE INDEX "ledger_account_time_idx" ON "ledger" USING btree ("account_id","occurred_at");--> statement-breakpoint
CREATE INDEX "ledger_entry_idx" ON "ledger" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "markets_fixture_idx" ON "markets" USING btree ("fixture_id");--> statement-breakpoint
CREATE INDEX "markets_status_idx" ON "markets" USING btree ("status");--> statement-breakpoint
CREATE INDEX "outcomes_market_idx" ON "outcomes" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "report_artifacts_owner_idx" ON "report_artifacts" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_account_idx" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "settlements_child_idx" ON "settlements" USING btree ("child_id","created_at");--> statement-breakpoint
CREATE INDEX "settlements_parent_idx" ON "settlements" USING btree ("parent_id","created_at");