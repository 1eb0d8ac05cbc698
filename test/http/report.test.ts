/** `scribe serve` answers GET /report with the HTML report of its project's statistics, behind the token. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StatsLog } from '../../src/stats/log.ts';
import { makeScribeProject, type ScribeProject } from '../fixtures/scribe-project.ts';
import { startTestServer, TOKEN, type TestServer } from './harness.ts';

let project: ScribeProject;
let server: TestServer;

beforeEach(async () => {
  project = makeScribeProject();
  const stats = new StatsLog(project.home);
  stats.record({ type: 'model_call', generation: 'g-1', provider: 'openai', model: 'gpt-4o-mini', attempts: 1, tokens: { prompt: 900, completion: 300, total: 1200 }, error: null });
  stats.record({ type: 'validation', generation: 'g-1', attempt: 1, passed: false, errors: ['no-nth-methods'], autofixed: [] });
  stats.record({ type: 'give_up', generation: 'g-1', attempts: 1, reason: 'max_retries', error: 'errors remain (no-nth-methods)' });
  server = await startTestServer(project.dir, project.env('http://127.0.0.1:9/v1', { SCRIBE_API_TOKEN: TOKEN }));
});
afterEach(async () => {
  await server.stop();
  project.remove();
});

describe('GET /report', () => {
  it('is the HTML report of the statistics (no script, images only inline), and needs the token', async () => {
    const response = await fetch(`${server.url}/report`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain('max_retries: errors remain (no-nth-methods)');
    expect(html).toContain('1200 tokens');
    expect(html).toMatch(/aria-label="Issues by rule"[\s\S]*no-nth-methods/);
    expect(html).not.toContain('<script');
    expect((await fetch(`${server.url}/report`)).status).toBe(401);
  });
});
