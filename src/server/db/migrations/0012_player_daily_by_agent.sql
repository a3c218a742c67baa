CREATE TABLE "player_daily_by_agent" (
	"agent_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"player_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"postings" integer NOT NULL,
	CONSTRAINT "player_daily_by_agent_agent_id_kind_day_player_id_pk" PRIMARY KEY("agent_id","kind","day","player_id")
);
--> statement-breakpoint
ALTER TABLE "player_daily_by_agent" ADD CONSTRAINT "player_daily_by_agent_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_agent_path_idx" ON "accounts" USING btree ("path" text_pattern_ops) WHERE "accounts"."role" = 'agent';--> statement-breakpoint
INSERT INTO "player_daily_by_agent" ("agent_id", "kind", "day", "player_id", "amount", "postings")
SELECT "l"."counterparty_id", "l"."kind", ("l"."occurred_at" AT TIME ZONE 'UTC')::date, "l"."account_id", sum("l"."amount"), count(*)
FROM "ledger" "l" JOIN "accounts" "a" ON "a"."id" = "l"."account_id"
WHERE "a"."role" = 'player' AND "l"."kind" IN ('bet_result', 'commission')
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
