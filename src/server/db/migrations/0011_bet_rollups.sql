CREATE TABLE "bet_totals" (
	"agent_id" uuid NOT NULL,
	"status" text NOT NULL,
	"bets" integer NOT NULL,
	"stake" bigint NOT NULL,
	"liability" bigint NOT NULL,
	"result" bigint NOT NULL,
	CONSTRAINT "bet_totals_agent_id_status_pk" PRIMARY KEY("agent_id","status")
);
--> statement-breakpoint
CREATE TABLE "open_positions" (
	"agent_id" uuid NOT NULL,
	"market_id" uuid NOT NULL,
	"outcome_id" uuid NOT NULL,
	"player_result" bigint NOT NULL,
	"bets" integer NOT NULL,
	CONSTRAINT "open_positions_agent_id_market_id_outcome_id_pk" PRIMARY KEY("agent_id","market_id","outcome_id")
);
--> statement-breakpoint
ALTER TABLE "bet_totals" ADD CONSTRAINT "bet_totals_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "open_positions" ADD CONSTRAINT "open_positions_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "open_positions_market_idx" ON "open_positions" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "settlements_created_idx" ON "settlements" USING btree ("created_at","id");--> statement-breakpoint
INSERT INTO "open_positions" ("agent_id", "market_id", "outcome_id", "player_result", "bets")
SELECT "p"."parent_id", "b"."market_id", "o"."id",
  sum(CASE WHEN ("b"."outcome_id" = "o"."id") = ("b"."side" = 'back')
    THEN CASE WHEN "b"."side" = 'back' THEN round("b"."stake"::numeric * ("b"."odds" - 100) / 100) ELSE "b"."stake" END
    ELSE -(CASE WHEN "b"."side" = 'back' THEN "b"."stake" ELSE round("b"."stake"::numeric * ("b"."odds" - 100) / 100) END) END),
  count(*) FILTER (WHERE "b"."outcome_id" = "o"."id")
FROM "bets" "b" JOIN "accounts" "p" ON "p"."id" = "b"."player_id" JOIN "outcomes" "o" ON "o"."market_id" = "b"."market_id"
WHERE "b"."status" = 'open'
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "bet_totals" ("agent_id", "status", "bets", "stake", "liability", "result")
SELECT "p"."parent_id", "b"."status", count(*), sum("b"."stake"),
  sum(CASE WHEN "b"."side" = 'back' THEN "b"."stake" ELSE round("b"."stake"::numeric * ("b"."odds" - 100) / 100) END), coalesce(sum("b"."result"), 0)
FROM "bets" "b" JOIN "accounts" "p" ON "p"."id" = "b"."player_id"
GROUP BY 1, 2;
