/**
 * The append-only event log: $SCRIBE_HOME/events.jsonl, else <cwd>/.scribe/events.jsonl.
 *
 * Each event is one appendFile of one line (O_APPEND), so several generations — processes or HTTP
 * jobs — can record at once without interleaving within a line. Readers skip a line they cannot
 * parse (a crash mid-write, an event type from a newer Scribe) rather than fail.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { statsHome } from '../config/paths.ts';
import { StatsEvent, type NewStatsEvent } from './events.ts';

export const EVENTS_FILE = 'events.jsonl';

export { statsHome };

/** Where the stages record their events: the log itself, or a forwarder (a server's job thread). */
export interface StatsSink {
  record(event: NewStatsEvent): void;
}

export class StatsLog implements StatsSink {
  readonly file: string;

  constructor(home: string) {
    this.file = path.join(home, EVENTS_FILE);
  }

  static at(env: NodeJS.ProcessEnv, cwd: string): StatsLog {
    return new StatsLog(statsHome(env, cwd));
  }

  record(event: NewStatsEvent): void {
    const line = StatsEvent.parse({ v: 1, time: new Date().toISOString(), ...event });
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }

  /** Every readable event, oldest first; no log yet is an empty history. */
  read(): StatsEvent[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return text.split('\n').flatMap((line) => {
      if (!line.trim()) return [];
      try {
        const parsed = StatsEvent.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }
}
