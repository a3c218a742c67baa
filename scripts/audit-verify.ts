/**
 * `npm run audit:verify -- [FILE] [--backend URL --user NAME | --anchors FILE --user-id ID]`:
 * checks main's audit log. FILE defaults to the browser shell's (`audit/audit.jsonl` in its data
 * folder; the desktop app keeps its log in `<userData>/audit/audit.jsonl`).
 *
 * Alone it checks the file's own hash chain. With the backend's records of one user's changes it
 * also checks that user's executed entries against them (what the Audit page does): --backend
 * signs in as NAME (the password from AUDIT_VERIFY_PASSWORD, never the command line) and reads
 * audit.anchors; --anchors reads them from a JSON file (`{ "anchors": [...] }`, the rows
 * audit.anchors returns, of the user whose id is --user-id). Prints one line per finding, naming
 * the rows and why.
 * Exits 0 when nothing was found, 1 when something was, 2 when there is nothing to check, the
 * backend cannot be read or the command line is wrong.
 */
import { auditVerifyCommand } from '../src/main/audit/verify-command.js';

process.exit(await auditVerifyCommand(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}));
