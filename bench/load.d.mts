/** Types of bench/load.mjs, for the TypeScript benches. */
export function median(values: readonly number[]): number;
export function busyCore(): () => void;
export function loadAverage(): string;
export function runsArgument(fallback: number): number;
