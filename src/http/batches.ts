/**
 * POST /v1/batch and GET /v1/batches/:id: requests of the request contract, generated as `generate --plan`
 * generates a plan. Each request not accepted before (workflow/batch.ts: its hash in the batch ledger, its spec
 * on disk) becomes one job of the backend, so a batch runs as many at once as the backend's workers and keeps
 * its limits; the others are skipped. Once every job has finished, the batch's summary is recorded in the
 * ledger (for `scribe report`, and so the next batch skips what this one accepted).
 *
 * A batch's record of which job is which is kept by the backend, where its jobs are: with a shared queue,
 * in Redis, so every API node answers for every batch; its summary is kept once, and recorded in the
 * ledger by the node that kept it.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { JobView } from '../contracts.ts';
import type { ProjectContext } from '../project/context.ts';
import { statsHome } from '../stats/log.ts';
import { acceptedBefore, recordBatch, summarize, type BatchItem, type BatchResult, type ScenarioOutcome } from '../workflow/batch.ts';
import type { BatchRecord, JobBackend } from './backend.ts';
import { HttpError } from '../endpoint/errors.ts';
import { isFinished } from './jobs.ts';
import { checkedSpecTarget } from '../endpoint/paths.ts';

/** A scenario of a batch as GET /v1/batches/:id shows it while the batch runs. */
export interface BatchScenarioView {
  index: number;
  request: string;
  page: string;
  /** The job generating it; null when it was skipped. */
  job: string | null;
  status: 'queued' | 'running' | ScenarioOutcome['status'];
  testPath: string | null;
  error: string | null;
}

export interface BatchView {
  batch: string;
  /** Every job has finished; `result` is the summary recorded in the ledger. */
  done: boolean;
  scenarios: BatchScenarioView[];
  result?: BatchResult;
}

export interface BatchTracker {
  submit(items: BatchItem[], owner: string): Promise<BatchView>;
  get(id: string): Promise<BatchView | undefined>;
}

export function createBatchTracker(options: { backend: JobBackend; project: ProjectContext; workers: number }): BatchTracker {
  const { backend, project } = options;
  const home = statsHome(project.env, project.cwd);

  const view = async (batch: BatchRecord): Promise<BatchView> => {
    if (batch.result) return { batch: batch.id, done: true, scenarios: batch.result.scenarios.map((s, i) => ({ ...s, job: jobOf(batch.slots[i]!) })), result: batch.result };
    const jobs = await Promise.all(batch.slots.map((slot) => ('job' in slot ? backend.get(slot.job) : Promise.resolve(undefined))));
    const outcomes = batch.items.map((item, i) => outcomeOf(item, i, batch.slots[i]!, jobs[i]));
    if (outcomes.every((o) => o.status !== 'queued' && o.status !== 'running')) {
      const started = Date.parse(batch.started);
      const result = summarize({
        batch: batch.id,
        plan: 'POST /v1/batch',
        started: batch.started,
        workers: options.workers,
        scenarios: outcomes.map((o, i) => scenarioOutcome(batch.items[i]!, o, jobs[i])),
        durationMs: Math.max(0, ...jobs.map((job) => (job?.finished_at ? Date.parse(job.finished_at) - started : 0))),
      });
      // Of the nodes that see the batch finish, the one that keeps its summary records it in the ledger; the others show the kept one.
      if (await backend.settleBatch(batch.id, result)) recordBatch(home, result);
      const settled = await backend.batch(batch.id);
      return view({ ...batch, result: settled?.result ?? result });
    }
    return { batch: batch.id, done: false, scenarios: outcomes };
  };

  return {
    async submit(items, owner) {
      const accepted = acceptedBefore(home, project.cwd);
      // Every target is checked before any job is queued: a bad one refuses the whole batch.
      const targets = items.map((item, index) => {
        try {
          return path.relative(project.cwd, checkedSpecTarget(project, item.request));
        } catch (error) {
          if (error instanceof HttpError) throw new HttpError(error.status, error.code, `requests.${index}: ${error.message}`, { fields: error.fields.map((f) => ({ ...f, field: `requests.${index}.${f.field}` })) });
          throw error;
        }
      });
      const slots: BatchRecord['slots'] = [];
      for (const [index, item] of items.entries()) {
        const before = accepted.get(item.hash);
        if (before) {
          slots.push({ skipped: before });
          continue;
        }
        const outcome = await backend.submit({ request: { ...item.request, outputPath: targets[index]! }, owner });
        if (!outcome.accepted) {
          // All or nothing: the jobs queued so far are cancelled.
          await Promise.all(slots.flatMap((slot) => ('job' in slot ? [backend.cancel(slot.job)] : [])));
          throw new HttpError(outcome.reason === 'full' ? 429 : 503, outcome.reason === 'full' ? 'queue_full' : 'shutting_down', `the batch's request ${index} was refused (${outcome.reason === 'full' ? 'too many jobs are waiting' : 'the server is shutting down'}); no job of it was kept`);
        }
        slots.push({ job: outcome.job.id });
      }
      const batch: BatchRecord = { id: randomUUID(), started: new Date().toISOString(), items, slots };
      await backend.saveBatch(batch);
      return view(batch);
    },
    async get(id) {
      const batch = await backend.batch(id);
      return batch ? view(batch) : undefined;
    },
  };
}

function jobOf(slot: BatchRecord['slots'][number]): string | null {
  return 'job' in slot ? slot.job : null;
}

function outcomeOf(item: BatchItem, index: number, slot: BatchRecord['slots'][number], job: JobView | undefined): BatchScenarioView {
  const base = { index: index + 1, request: item.request.description, page: item.page, job: jobOf(slot) };
  if ('skipped' in slot) return { ...base, status: 'skipped', testPath: slot.skipped, error: null };
  if (!job) return { ...base, status: 'failed', testPath: null, error: 'the job is no longer known (finished jobs are kept for jobs.retention_ms)' };
  if (!isFinished(job.status)) return { ...base, status: job.status === 'queued' ? 'queued' : 'running', testPath: null, error: null };
  const success = job.status === 'done' && job.result?.success === true;
  return { ...base, status: success ? 'accepted' : 'failed', testPath: job.result?.testPath ?? null, error: success ? null : (job.result?.error ?? job.error ?? job.status) };
}

function scenarioOutcome(item: BatchItem, view: BatchScenarioView, job: JobView | undefined): ScenarioOutcome {
  const started = job?.started_at ? Date.parse(job.started_at) : undefined;
  const finished = job?.finished_at ? Date.parse(job.finished_at) : undefined;
  return {
    index: view.index,
    hash: item.hash,
    request: view.request,
    page: view.page,
    status: view.status === 'accepted' || view.status === 'skipped' ? view.status : 'failed',
    testPath: view.testPath,
    // A job's document names no generation id nor its tokens: the statistics log has them.
    generation: null,
    attempts: job?.result?.attempts ?? 0,
    tokens: 0,
    duration_ms: started !== undefined && finished !== undefined ? Math.max(0, finished - started) : 0,
    error: view.error,
  };
}
