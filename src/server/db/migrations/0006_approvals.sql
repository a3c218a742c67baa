CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"args" jsonb NOT NULL,
	"snapshot" jsonb,
	"card" jsonb NOT NULL,
	"summary" text NOT NULL,
	"channel" text NOT NULL,
	"client" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_via" text,
	"result" jsonb
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_owner_idx" ON "approvals" USING btree ("owner_id","created_at");