CREATE TABLE "market_volume_daily" (
	"agent_id" uuid NOT NULL,
	"market_id" uuid NOT NULL,
	"day" date NOT NULL,
	"stake" bigint NOT NULL,
	"bets" integer NOT NULL,
	CONSTRAINT "market_volume_daily_agent_id_day_market_id_pk" PRIMARY KEY("agent_id","day","market_id")
);
--> statement-breakpoint
ALTER TABLE "market_volume_daily" ADD CONSTRAINT "market_volume_daily_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "market_volume_daily" ("agent_id", "market_id", "day", "stake", "bets")
SELECT "above"."id"::uuid, "b"."market_id", ("b"."placed_at" AT TIME ZONE 'UTC')::date, sum("b"."stake"), count(*)
FROM "bets" "b" JOIN "accounts" "p" ON "p"."id" = "b"."player_id"
CROSS JOIN LATERAL unnest(string_to_array("p"."path", '.')) AS "above"("id")
WHERE "above"."id" <> "p"."id"::text
GROUP BY 1, 2, 3;
--> statement-breakpoint
DELETE FROM "ledger_market_daily" WHERE "account_id" IN (SELECT "id" FROM "accounts" WHERE "role" = 'player');
