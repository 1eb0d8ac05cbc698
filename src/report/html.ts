/**
 * The report as one self-contained HTML file: inline CSS, charts as inline SVG, screenshots as data
 * URIs, no script and nothing fetched from the network. Every text from a spec, a request or a model is
 * escaped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GenerationView, ReportData } from './data.ts';

/** Generations per point of a chart at most: the history is cut into this many groups, oldest first. */
const CHART_POINTS = 12;

export function renderReport(data: ReportData, options: { title: string; generatedAt: string; cwd: string }): string {
  const { generations } = data;
  const accepted = generations.filter((g) => g.accepted).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(options.title)}</title>
<style>${CSS}</style></head><body>
<h1>${esc(options.title)}</h1>
<p class="meta">Generated ${esc(options.generatedAt)} · ${generations.length} generations, ${accepted} accepted · ${data.batches.length} batches · ${data.heals.length} suite heals</p>
<section id="charts"><h2>Over time</h2><div class="charts">
${lineChart('First-attempt pass rate', series(generations, (group) => ratio(group.filter((g) => g.attemptIssues[0]?.length === 0).length, group.filter((g) => g.attemptIssues.length > 0).length)), true)}
${lineChart('Runner pass rate', series(generations, (group) => ratio(group.flatMap((g) => g.runs).filter((r) => r.classification === 'pass').length, group.flatMap((g) => g.runs).length)), true)}
${lineChart('Tokens per accepted spec', series(generations, (group) => ratio(group.reduce((sum, g) => sum + g.tokens, 0), group.filter((g) => g.accepted).length)), false)}
${barChart('Issues by rule', issuesByRule(generations))}
</div></section>
${batchesSection(data)}
${healsSection(data)}
<section id="generations"><h2>Requests</h2>
${generations.length === 0 ? '<p>No generation recorded yet.</p>' : [...generations].reverse().map((g) => generationSection(g, options.cwd)).join('\n')}
</section>
</body></html>
`;
}

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#1d2330;padding:0 1rem}
h1{margin-bottom:.2rem}.meta{color:#5b6475}table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{border-bottom:1px solid #e3e6ec;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f5f6f9}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:1rem}figure{margin:0;border:1px solid #e3e6ec;border-radius:6px;padding:.5rem}
figcaption{font-weight:600;margin-bottom:.3rem}.request{border:1px solid #e3e6ec;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
.accepted{color:#17813a}.failed{color:#b3261e}pre{background:#f5f6f9;padding:.6rem;overflow:auto;font-size:12px}
img.shot{max-width:100%;border:1px solid #e3e6ec}.diff .add{color:#17813a}.diff .del{color:#b3261e}code{font-size:12px}`;

function generationSection(g: GenerationView, cwd: string): string {
  const status = g.accepted ? '<span class="accepted">accepted</span>' : `<span class="failed">${esc(g.verdict)}</span>`;
  const attempts = g.attemptIssues.map((rules, n) => `<li>attempt ${n + 1}: ${rules.length === 0 ? 'passed every rule' : esc(rules.join(', '))}</li>`).join('');
  const spec = g.spec;
  const shots = (spec?.screenshots ?? []).map((file) => `<img class="shot" alt="screenshot ${esc(path.basename(file))}" src="${dataUri(file)}">`).join('');
  const traces = (spec?.traces ?? []).map((file) => `<li><code>npx playwright show-trace ${esc(file)}</code> (<a href="${esc(fileUrl(file))}">trace.zip</a>)</li>`).join('');
  return `<article class="request" data-generation="${esc(g.id)}">
<h3>${esc(g.request ?? `generation ${g.id.slice(0, 8)}`)}</h3>
<p>${status} · ${g.attempts} attempt${g.attempts === 1 ? '' : 's'} · ${g.modelCalls} model calls · ${g.tokens} tokens · ${(g.durationMs / 1000).toFixed(1)} s · ${esc(g.started)}</p>
${attempts ? `<ul>${attempts}</ul>` : ''}
${g.critic.length > 0 ? `<p>Critic: ${esc(g.critic.join('; '))}</p>` : ''}
${g.runs.length > 0 ? `<p>Runs: ${esc(g.runs.map((r) => r.classification).join(' → '))}</p>` : ''}
${g.heals.length > 0 ? `<p>Heals: ${esc(g.heals.join(', '))}</p>` : ''}
${spec ? `<details><summary>${esc(path.relative(cwd, spec.path) || spec.path)}</summary><pre><code>${esc(spec.code)}</code></pre></details>` : ''}
${shots}
${traces ? `<ul>${traces}</ul>` : ''}
</article>`;
}

function batchesSection(data: ReportData): string {
  if (data.batches.length === 0) return '';
  const rows = data.batches
    .map((b) => {
      const s = b.summary;
      return `<tr><td>${esc(b.started)}</td><td>${esc(b.plan)}</td><td>${b.workers}</td><td>${s.scenarios}</td><td>${s.accepted}</td><td>${s.skipped}</td><td>${s.failed}</td><td>${s.first_attempt_rate === null ? '—' : `${Math.round(s.first_attempt_rate * 100)}%`}</td><td>${s.tokens}</td><td>${(s.duration_ms / 1000).toFixed(1)} s</td></tr>`;
    })
    .join('');
  return `<section id="batches"><h2>Batches</h2><table><tr><th>started</th><th>plan</th><th>workers</th><th>scenarios</th><th>accepted</th><th>skipped</th><th>not accepted</th><th>first answer</th><th>tokens</th><th>time</th></tr>${rows}</table></section>`;
}

function healsSection(data: ReportData): string {
  if (data.heals.length === 0) return '';
  const body = data.heals
    .map((heal) => {
      const specs = heal.specs
        .map((s) => `<li>${esc(s.file)}: <strong>${esc(s.status)}</strong> (${s.model_calls} model calls)${s.diff ? `<pre class="diff">${diffLines(s.diff)}</pre>` : ''}${s.reasons.length > 0 ? `<ul>${s.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>` : ''}</li>`)
        .join('');
      return `<h3>${esc(heal.time)}${heal.dry_run ? ' (dry run)' : ''}: ${heal.summary.healed} healed of ${heal.summary.specs}</h3><ul>${specs}</ul>`;
    })
    .join('');
  return `<section id="heals"><h2>Suite heals</h2>${body}</section>`;
}

function diffLines(diff: string): string {
  return diff
    .trimEnd()
    .split('\n')
    .map((line) => (line.startsWith('+') && !line.startsWith('+++') ? `<span class="add">${esc(line)}</span>` : line.startsWith('-') && !line.startsWith('---') ? `<span class="del">${esc(line)}</span>` : esc(line)))
    .join('\n');
}

/** One value per group of generations, oldest first; a group with nothing to measure has none. */
function series(generations: readonly GenerationView[], measure: (group: GenerationView[]) => number | null): Array<{ label: string; value: number | null }> {
  const size = Math.max(1, Math.ceil(generations.length / CHART_POINTS));
  const points: Array<{ label: string; value: number | null }> = [];
  for (let i = 0; i < generations.length; i += size) {
    const group = generations.slice(i, i + size);
    points.push({ label: group[0]!.started.slice(0, 16).replace('T', ' '), value: measure(group) });
  }
  return points;
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function issuesByRule(generations: readonly GenerationView[]): Array<{ label: string; value: number }> {
  const counts = new Map<string, number>();
  for (const rule of generations.flatMap((g) => g.attemptIssues.flat())) counts.set(rule, (counts.get(rule) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([label, value]) => ({ label, value }));
}

const W = 320;
const H = 150;
const PAD = 30;

function lineChart(title: string, points: Array<{ label: string; value: number | null }>, percent: boolean): string {
  const known = points.filter((p): p is { label: string; value: number } => p.value !== null);
  const max = percent ? 1 : Math.max(1, ...known.map((p) => p.value));
  const x = (i: number) => PAD + (points.length <= 1 ? (W - 2 * PAD) / 2 : (i * (W - 2 * PAD)) / (points.length - 1));
  const y = (v: number) => H - PAD - (v / max) * (H - 2 * PAD);
  const coords = points.flatMap((p, i) => (p.value === null ? [] : [`${x(i).toFixed(1)},${y(p.value).toFixed(1)}`]));
  const shown = (v: number) => (percent ? `${Math.round(v * 100)}%` : String(Math.round(v)));
  const dots = points.flatMap((p, i) => (p.value === null ? [] : [`<circle cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3"><title>${esc(p.label)}: ${shown(p.value)}</title></circle>`]));
  const body = known.length === 0 ? `<text x="${W / 2}" y="${H / 2}" text-anchor="middle" fill="#5b6475">no data yet</text>` : `<polyline fill="none" stroke="#2f6fdf" stroke-width="2" points="${coords.join(' ')}"/>${dots.join('')}`;
  return `<figure><figcaption>${esc(title)}</figcaption><svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${H}" width="100%">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#aab"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#aab"/>
<text x="${PAD - 4}" y="${PAD + 4}" text-anchor="end" font-size="10">${shown(max)}</text><text x="${PAD - 4}" y="${H - PAD}" text-anchor="end" font-size="10">0</text>
${body}</svg></figure>`;
}

function barChart(title: string, bars: Array<{ label: string; value: number }>): string {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 18;
  const height = Math.max(40, bars.length * row + 10);
  const body =
    bars.length === 0
      ? `<text x="${W / 2}" y="24" text-anchor="middle" fill="#5b6475">no issues recorded</text>`
      : bars
          .map((b, i) => `<text x="120" y="${i * row + 14}" text-anchor="end" font-size="11">${esc(b.label)}</text><rect x="125" y="${i * row + 3}" height="${row - 6}" width="${((b.value / max) * (W - 160)).toFixed(1)}" fill="#e07a2f"/><text x="${(130 + (b.value / max) * (W - 160)).toFixed(1)}" y="${i * row + 14}" font-size="11">${b.value}</text>`)
          .join('');
  return `<figure><figcaption>${esc(title)}</figcaption><svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${height}" width="100%">${body}</svg></figure>`;
}

function dataUri(file: string): string {
  const type = file.endsWith('.jpg') || file.endsWith('.jpeg') ? 'image/jpeg' : 'image/png';
  return `data:${type};base64,${readFileSync(file).toString('base64')}`;
}

function fileUrl(file: string): string {
  return `file://${file.split(path.sep).map(encodeURIComponent).join('/')}`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
