/**
 * Main's Prometheus metrics: tool calls through the registry, its circuit breakers, and
 * what the model costs. Served at `/metrics` of the browser shell and read by `npm run load`.
 * No electron here: the registry, the shell and the load driver all run without it.
 *
 * Labels are bounded: a tool label is a registered tool's name ('unknown' for anything a model
 * made up), an outcome 'ok' or an envelope error code, a model label one the settings allow.
 */
import { CircuitState } from 'cockatiel';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallTokens } from './assistant/claude/prices.js';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2.5, 5, 10, 30];

/** The gauge's value per breaker state (cockatiel's enum is a number too, but its order is not a promise). */
const BREAKER_VALUE: Record<CircuitState, number> = {
  [CircuitState.Closed]: 0, [CircuitState.HalfOpen]: 1, [CircuitState.Open]: 2, [CircuitState.Isolated]: 3,
};

/** What the tool registry and the Claude turn report; every method is cheap and never throws. */
export interface MainMetrics {
  registry: Registry;
  toolCall(tool: string, outcome: string, seconds: number): void;
  breakerState(tool: string, state: CircuitState): void;
  modelCall(model: string, tokens: CallTokens, costMicroUsd: number): void;
}

export function createMainMetrics(options: { processMetrics?: boolean } = {}): MainMetrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'agent_desk_tool_calls_total', help: 'Tool calls through the registry, by tool and outcome (ok, or the envelope\'s error code)',
    labelNames: ['tool', 'outcome'], registers: [registry],
  });
  const duration = new Histogram({
    name: 'agent_desk_tool_call_duration_seconds', help: 'Tool calls, checks, retries and backend round trips included',
    labelNames: ['tool', 'outcome'], buckets: DURATION_BUCKETS, registers: [registry],
  });
  const breaker = new Gauge({
    name: 'agent_desk_tool_breaker_state', help: 'Circuit breaker per tool: 0 closed, 1 half-open, 2 open, 3 isolated',
    labelNames: ['tool'], registers: [registry],
  });
  const tokens = new Counter({
    name: 'agent_desk_model_tokens_total', help: 'Model tokens by model and kind (input, output, cache_write, cache_read)',
    labelNames: ['model', 'kind'], registers: [registry],
  });
  const cost = new Counter({
    name: 'agent_desk_model_cost_micro_usd_total', help: 'What the model calls cost, in micro-USD (prices.ts, rounded up per call)',
    labelNames: ['model'], registers: [registry],
  });
  return {
    registry,
    toolCall(tool, outcome, seconds) {
      calls.inc({ tool, outcome });
      duration.observe({ tool, outcome }, seconds);
    },
    breakerState(tool, state) {
      breaker.set({ tool }, BREAKER_VALUE[state]);
    },
    modelCall(model, t, costMicroUsd) {
      tokens.inc({ model, kind: 'input' }, t.inputTokens);
      tokens.inc({ model, kind: 'output' }, t.outputTokens);
      tokens.inc({ model, kind: 'cache_write' }, t.cacheWriteTokens);
      tokens.inc({ model, kind: 'cache_read' }, t.cacheReadTokens);
      cost.inc({ model }, costMicroUsd);
    },
  };
}

/** This process's: what the registry and the Claude turn report to unless given another. */
export const mainMetrics = createMainMetrics();
