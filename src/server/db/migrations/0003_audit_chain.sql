ALTER TABLE "audit_log" ADD COLUMN "seq" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_actor_seq_idx" ON "audit_log" USING btree ("actor_id","seq");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_chain_whole" CHECK (("audit_log"."seq" is null) = ("audit_log"."hash" is null) and ("audit_log"."seq" is null) = ("audit_log"."prev_hash" is null));--> statement-breakpoint
-- audit_heads held heads a desk sent (audit.recordHead), which anyone could set; from here on it
-- holds the backend's own chain heads, which start afresh at each actor's next audited change.
DELETE FROM "audit_heads";
