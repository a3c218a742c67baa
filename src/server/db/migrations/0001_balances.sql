CREATE TABLE "balances" (
	"child_id" uuid PRIMARY KEY NOT NULL,
	"parent_id" uuid NOT NULL,
	"take" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "bets_open_idx";--> statement-breakpoint
DROP INDEX "ledger_account_time_idx";--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_child_id_accounts_id_fk" FOREIGN KEY ("child_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_parent_id_accounts_id_fk" FOREIGN KEY ("parent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balances_parent_idx" ON "balances" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "bets_open_player_idx" ON "bets" USING btree ("player_id","market_id","outcome_id","side","stake","odds") WHERE "bets"."status" = 'open';--> statement-breakpoint
CREATE INDEX "bets_player_summary_idx" ON "bets" USING btree ("player_id","status","side","stake","odds","result");--> statement-breakpoint
CREATE INDEX "ledger_account_kind_time_idx" ON "ledger" USING btree ("account_id","kind","occurred_at","amount","market_id");