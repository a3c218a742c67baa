// `GET /metrics`: the standalone backend over real HTTP answers in Prometheus
// text, with a duration sample for a procedure just called and an error count for a refused call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBackend, startTestBackend } from '../helpers/backend.js';

/** A sample's value in Prometheus text, 0 when the series is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('backend /metrics', () => {
  let b: TestBackend;
  beforeAll(async () => { b = await startTestBackend('pglite'); });
  afterAll(async () => b?.close());

  const scrape = async () => {
    const res = await fetch(`${b.server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('counts a procedure just called in its duration histogram', async () => {
    const series = 'agent_desk_request_duration_seconds_count{procedure="agent.getUpline",type="query",outcome="ok"}';
    const before = sample(await scrape(), series);
    const api = b.client(await b.login('priya'));
    await api.agent.getUpline.query({});
    await api.agent.getUpline.query({});
    const text = await scrape();
    expect(sample(text, series)).toBe(before + 2);
    expect(text).toMatch(/^agent_desk_request_duration_seconds_bucket\{le="0\.15",procedure="agent\.getUpline",type="query",outcome="ok"\} \d+$/m);
    // The process figures a soak run reads for memory.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
  });

  it('counts a refused call under its procedure and code', async () => {
    const series = 'agent_desk_request_errors_total{procedure="agent.getTake",code="UNAUTHORIZED"}';
    const before = sample(await scrape(), series);
    await expect(b.client().agent.getTake.query({})).rejects.toThrow();
    const text = await scrape();
    expect(sample(text, series)).toBe(before + 1);
    expect(sample(text, 'agent_desk_request_duration_seconds_count{procedure="agent.getTake",type="query",outcome="error"}')).toBeGreaterThanOrEqual(1);
  });

  it('counts a refusal of the arguments as BAD_REQUEST', async () => {
    const series = 'agent_desk_request_errors_total{procedure="agent.getDownline",code="BAD_REQUEST"}';
    const before = sample(await scrape(), series);
    const api = b.client(await b.login('priya'));
    await expect(api.agent.getDownline.query({ depth: 99 })).rejects.toThrow();
    expect(sample(await scrape(), series)).toBe(before + 1);
  });
});
