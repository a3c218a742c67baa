CREATE TABLE "ledger_daily" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"amount" bigint NOT NULL,
	"postings" integer NOT NULL,
	CONSTRAINT "ledger_daily_account_id_kind_day_pk" PRIMARY KEY("account_id","kind","day")
);
--> statement-breakpoint
CREATE TABLE "ledger_market_daily" (
	"account_id" uuid NOT NULL,
	"market_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"amount" bigint NOT NULL,
	"postings" integer NOT NULL,
	CONSTRAINT "ledger_market_daily_account_id_day_market_id_kind_pk" PRIMARY KEY("account_id","day","market_id","kind")
);
--> statement-breakpoint
ALTER TABLE "ledger_daily" ADD CONSTRAINT "ledger_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_market_daily" ADD CONSTRAINT "ledger_market_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "ledger_daily" ("account_id", "kind", "day", "amount", "postings")
SELECT "account_id", "kind", ("occurred_at" AT TIME ZONE 'UTC')::date, sum("amount"), count(*) FROM "ledger" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "ledger_market_daily" ("account_id", "market_id", "kind", "day", "amount", "postings")
SELECT "account_id", "market_id", "kind", ("occurred_at" AT TIME ZONE 'UTC')::date, sum("amount"), count(*) FROM "ledger" WHERE "market_id" IS NOT NULL GROUP BY 1, 2, 3, 4;
