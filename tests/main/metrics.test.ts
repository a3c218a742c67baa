// Main's metrics: a tool call through a real registry, to a real backend over
// HTTP, is counted by tool and outcome, and its breaker's state is on the gauge.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatService } from '../../src/main/assistant/chat-service.js';
import { AuditLog } from '../../src/main/audit/audit-log.js';
import { connectBackend } from '../../src/main/backend/connection.js';
import { DeskSessions } from '../../src/main/desk/sessions.js';
import { createMainMetrics } from '../../src/main/metrics.js';
import { createToolRegistry } from '../../src/main/tools/registry.js';
import { startBrowserShell } from '../../src/main/web/server.js';
import { silentLogger } from '../../src/infra/log.js';
import { keylessModels } from '../helpers/model-settings.js';
import { userSchema } from '../../src/shared/contracts/agent-api.js';
import { type TestBackend, startTestBackend } from '../helpers/backend.js';

describe('main /metrics module', () => {
  let b: TestBackend;
  beforeAll(async () => { b = await startTestBackend('pglite'); });
  afterAll(async () => b?.close());

  it('counts tool calls by tool and outcome, with their durations and the breaker state', async () => {
    const metrics = createMainMetrics({ processMetrics: false });
    const registry = createToolRegistry({ metrics, backoffMs: 0 });
    const connection = await connectBackend({ mode: 'remote', url: b.server.url }, silentLogger);
    const token = await b.login('priya');
    const api = connection.client(token);
    const user = userSchema.parse(await api.auth.me.query());
    const ctx = { api, user, requestId: 'metrics-test' };

    expect((await registry.call('agent.getDownline', { depth: 1 }, ctx)).ok).toBe(true);
    const refused = await registry.call('agent.settlePlayer', { playerId: user.id, mode: 'auto' }, ctx);
    expect(refused.ok).toBe(false);
    await registry.call('agent.noSuchTool', {}, ctx);

    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^agent_desk_tool_calls_total\{tool="agent\.getDownline",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^agent_desk_tool_calls_total\{tool="agent\.settlePlayer",outcome="CONFIRMATION_REQUIRED"\} 1$/m);
    // A made-up name is counted under one label, not its own.
    expect(text).toMatch(/^agent_desk_tool_calls_total\{tool="unknown",outcome="UNKNOWN_TOOL"\} 1$/m);
    expect(text).toMatch(/^agent_desk_tool_call_duration_seconds_count\{tool="agent\.getDownline",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^agent_desk_tool_breaker_state\{tool="agent\.getDownline"\} 0$/m);
  });

  it('adds model tokens and cost per model', async () => {
    const metrics = createMainMetrics({ processMetrics: false });
    metrics.modelCall('claude-haiku-5-5', { inputTokens: 1000, outputTokens: 200, cacheWriteTokens: 0, cacheReadTokens: 500 }, 205);
    metrics.modelCall('claude-haiku-5-5', { inputTokens: 10, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0 }, 1);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^agent_desk_model_tokens_total\{model="claude-haiku-5-5",kind="input"\} 1010$/m);
    expect(text).toMatch(/^agent_desk_model_tokens_total\{model="claude-haiku-5-5",kind="cache_read"\} 500$/m);
    expect(text).toMatch(/^agent_desk_model_cost_micro_usd_total\{model="claude-haiku-5-5"\} 206$/m);
  });

  it('are served at /metrics of the browser shell, a call through a default registry counted', async () => {
    const connection = await connectBackend({ mode: 'remote', url: b.server.url }, silentLogger);
    const rendererDir = mkdtempSync(join(tmpdir(), 'desk-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Agent Desk</title>');
    const audit = new AuditLog(join(mkdtempSync(join(tmpdir(), 'desk-metrics-')), 'audit.jsonl'));
    const shell = await startBrowserShell({
      backend: connection, sessions: new DeskSessions(), log: silentLogger, chat: {} as ChatService, audit, models: keylessModels(), rendererDir,
    });
    try {
      const series = /^agent_desk_tool_calls_total\{tool="agent\.getUpline",outcome="ok"\} (\d+)$/m;
      const scrape = async () => {
        const res = await fetch(`${shell.url}/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return res.text();
      };
      const before = Number(series.exec(await scrape())?.[1] ?? 0);
      const api = connection.client(await b.login('priya'));
      const user = userSchema.parse(await api.auth.me.query());
      expect((await createToolRegistry().call('agent.getUpline', {}, { api, user, requestId: 'metrics-shell' })).ok).toBe(true);
      const text = await scrape();
      expect(Number(series.exec(text)?.[1] ?? 0)).toBe(before + 1);
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    } finally {
      await shell.close();
    }
  });
});
