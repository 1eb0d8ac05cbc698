/**
 * Job records on disk, one JSON file a job under <Scribe home>/jobs/, so a restarted server still
 * answers for the jobs it had: a finished job as it ended, a job it was running or holding as
 * interrupted. Each record is written atomically; a file that cannot be read is skipped.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { JobView } from '../contracts.ts';
import { writeFileAtomic } from '../util/fs.ts';

/** What a job's file keeps: its view, without the queue position (which only the running server knows). */
const StoredJob = JobView.omit({ queue_position: true });

export class JobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  save(job: JobView): void {
    const { queue_position: _position, ...record } = job;
    writeFileAtomic(this.fileOf(job.id), `${JSON.stringify(record)}\n`);
  }

  remove(id: string): void {
    rmSync(this.fileOf(id), { force: true });
  }

  /** Every readable record, oldest first. */
  load(): JobView[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const jobs = names.filter((name) => name.endsWith('.json')).flatMap((name) => {
      try {
        const parsed = StoredJob.safeParse(JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
    return jobs.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}
