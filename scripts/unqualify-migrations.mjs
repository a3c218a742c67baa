// drizzle-kit writes "public"."table" into foreign keys; unqualified names let the same
// migrations run inside any schema (the PostgreSQL test suites each get a private one).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../src/server/db/migrations/', import.meta.url);
for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql'))) {
  const path = new URL(name, dir);
  const sql = readFileSync(path, 'utf8');
  const fixed = sql.replaceAll('"public".', '');
  if (fixed !== sql) writeFileSync(path, fixed);
}
