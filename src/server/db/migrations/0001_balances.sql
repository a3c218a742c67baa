CREATE TABLE "balances" (
	"child_id" uuid PRIMARY KEY NOT NULL,
	"parent_id" uuid NOT NULL,
	"take" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "ledger_account_time_idx";--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_child_id_accounts_id_fk" FOREIGN KEY ("child_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_parent_id_accounts_id_fk" FOREIGN KEY ("parent_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "balances_parent_idx" ON "balances" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "ledger_account_time_idx" ON "ledger" USING btree ("account_id","occurred_at","kind","amount","market_id");