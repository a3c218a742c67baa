CREATE TABLE "market_volume_monthly" (
	"agent_id" uuid NOT NULL,
	"market_id" uuid NOT NULL,
	"month" date NOT NULL,
	"stake" bigint NOT NULL,
	"bets" integer NOT NULL,
	CONSTRAINT "market_volume_monthly_agent_id_month_market_id_pk" PRIMARY KEY("agent_id","month","market_id")
);
--> statement-breakpoint
CREATE TABLE "player_monthly_by_agent" (
	"agent_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"month" date NOT NULL,
	"player_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"postings" integer NOT NULL,
	CONSTRAINT "player_monthly_by_agent_agent_id_kind_month_player_id_pk" PRIMARY KEY("agent_id","kind","month","player_id")
);
--> statement-breakpoint
ALTER TABLE "market_volume_monthly" ADD CONSTRAINT "market_volume_monthly_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_monthly_by_agent" ADD CONSTRAINT "player_monthly_by_agent_agent_id_accounts_id_fk" FOREIGN KEY ("agent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "player_monthly_by_agent" ("agent_id", "kind", "month", "player_id", "amount", "postings")
SELECT "agent_id", "kind", date_trunc('month', "day")::date, "player_id", sum("amount"), sum("postings")
FROM "player_daily_by_agent" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "market_volume_monthly" ("agent_id", "market_id", "month", "stake", "bets")
SELECT "agent_id", "market_id", date_trunc('month', "day")::date, sum("stake"), sum("bets")
FROM "market_volume_daily" GROUP BY 1, 2, 3 ORDER BY 1, 3, 2;
