CREATE TABLE "report_link_secret" (
	"id" integer PRIMARY KEY NOT NULL,
	"secret" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_link_secret_one_row" CHECK ("report_link_secret"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "report_shares" (
	"artifact_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"shared_by" uuid NOT NULL,
	"shared_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_shares_artifact_id_recipient_id_pk" PRIMARY KEY("artifact_id","recipient_id")
);
--> statement-breakpoint
ALTER TABLE "report_artifacts" ALTER COLUMN "content" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "status" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "file_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "rows_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "rows_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "size_bytes" integer;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_artifact_id_report_artifacts_id_fk" FOREIGN KEY ("artifact_id") REFERENCES "report_artifacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_recipient_id_accounts_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_shares" ADD CONSTRAINT "report_shares_shared_by_accounts_id_fk" FOREIGN KEY ("shared_by") REFERENCES "accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_shares_recipient_idx" ON "report_shares" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "report_artifacts_expires_idx" ON "report_artifacts" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "report_artifacts" ADD CONSTRAINT "report_artifacts_ready_has_content" CHECK (("report_artifacts"."status" = 'ready') = ("report_artifacts"."content" is not null));