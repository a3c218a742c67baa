/**
 * The backend's Prometheus metrics, served at `GET /metrics`. One registry per process:
 * Prometheus scrapes a process, and two backends in one process (tests) are still one process.
 *
 * Labels are bounded on purpose: a procedure label only ever holds a path of the router (the
 * middleware never runs for an unknown one), an error label one of tRPC's codes.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Seconds; dense around the 150 ms goal so p95 reads off the buckets near it. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2.5, 5, 10];
/** Seconds from an event's commit (its created_at, on the book's clock) to its sending. */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface ServerMetrics {
  registry: Registry;
  requestDuration: Histogram<'procedure' | 'type' | 'outcome'>;
  requestErrors: Counter<'procedure' | 'code'>;
  requestsRefusedBusy: Counter<'gate'>;
  eventLag: Histogram<string>;
  openStreams: Gauge<string>;
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  // Process figures (RSS, heap, event-loop lag, GC): what a soak run reads for flat memory.
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'agent_desk_request_duration_seconds',
      help: 'tRPC queries and mutations, from the first middleware to the answer (subscriptions: until the stream is set up)',
      labelNames: ['procedure', 'type', 'outcome'], buckets: DURATION_BUCKETS, registers: [registry],
    }),
    requestErrors: new Counter({
      name: 'agent_desk_request_errors_total',
      help: 'tRPC calls that ended in an error, by procedure and tRPC code (refusals included)',
      labelNames: ['procedure', 'code'], registers: [registry],
    }),
    requestsRefusedBusy: new Counter({
      name: 'agent_desk_requests_refused_busy_total',
      help: 'tRPC requests answered 503 with Retry-After because the gate (calls or sign-ins) had no place running or waiting',
      labelNames: ['gate'], registers: [registry],
    }),
    eventLag: new Histogram({
      name: 'agent_desk_event_stream_lag_seconds',
      help: 'events.stream: from an event\'s created_at (book clock) to its sending, live events only (not a reconnect\'s backlog)',
      buckets: LAG_BUCKETS, registers: [registry],
    }),
    openStreams: new Gauge({ name: 'agent_desk_event_streams_open', help: 'events.stream subscriptions open now', registers: [registry] }),
  };
}

export const serverMetrics = createServerMetrics();
