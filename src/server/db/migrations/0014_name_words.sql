CREATE TABLE "name_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "accounts_search_words_idx" ON "accounts" USING gin (string_to_array("search_name", ' '));--> statement-breakpoint
-- A trigger, not the writers: accounts are written by the seed, the hedge's self account and tests'
-- own rows, and every one of them must find its words here.
CREATE FUNCTION "name_words_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "name_words" ("word")
	SELECT DISTINCT w FROM unnest(string_to_array(NEW."search_name", ' ')) AS w WHERE w <> ''
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "accounts_name_words" AFTER INSERT OR UPDATE OF "search_name" ON "accounts"
	FOR EACH ROW EXECUTE FUNCTION "name_words_keep"();
--> statement-breakpoint
INSERT INTO "name_words" ("word")
SELECT DISTINCT w FROM "accounts", unnest(string_to_array("search_name", ' ')) AS w WHERE w <> ''
ON CONFLICT DO NOTHING;
