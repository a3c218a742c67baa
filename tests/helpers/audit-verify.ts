import { auditVerifyCommand } from '../../src/main/audit/verify-command.js';

/**
 * `npm run audit:verify -- ARGS`, run in this process: its exit code and what it wrote. (One test
 * in tests/main/audit/audit-log.test.ts runs the real script as a child process, for the wiring
 * and the default file.)
 */
export async function auditVerify(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  // Only what the test names: AUDIT_VERIFY_PASSWORD must not leak in from the machine.
  const code = await auditVerifyCommand(args, { DESK_DATA_DIR: process.env.DESK_DATA_DIR, ...env }, {
    out: (text) => { stdout += text; },
    err: (text) => { stderr += text; },
  });
  return { code, stdout, stderr };
}
