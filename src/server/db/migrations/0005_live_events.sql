ALTER TABLE "accounts" ADD COLUMN "self_of" uuid;--> statement-breakpoint
ALTER TABLE "event_mutes" ADD COLUMN "until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_self_of_key" ON "accounts" USING btree ("self_of");