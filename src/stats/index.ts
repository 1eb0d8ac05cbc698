/** Statistics: the event log and what `scribe stats` and `GET /v1/stats` compute from it. */
import { computeStats, type StatsDocument } from './aggregate.ts';
import { StatsLog } from './log.ts';

export { computeStats, GATE_KEYS, ratio, StatsDocument } from './aggregate.ts';
export { StatsEvent, type NewStatsEvent } from './events.ts';
export { EVENTS_FILE, StatsLog, statsHome } from './log.ts';

/** The stats document of the log in $SCRIBE_HOME (else <cwd>/.scribe). */
export function readStats(env: NodeJS.ProcessEnv, cwd: string): StatsDocument {
  return computeStats(StatsLog.at(env, cwd).read());
}
