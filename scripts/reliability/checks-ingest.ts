/**
 * The ingest's reliability checks over one simulated stream: killed at random points, then finished, it leaves
 * every table as a clean run does; with its database stopped and started again mid-run, it carries on by itself
 * and leaves the same tables.
 */
import { allTables, type Cluster, differingTables } from './cluster.ts';
import { spawnIngest } from './ingest-run.ts';

export interface CheckResult {
  readonly ok: boolean;
  readonly line: string;
}

/** The clean run: every table after one uninterrupted ingest, and how long it took. */
export async function cleanRun(cluster: Cluster, streams: string): Promise<CleanRun> {
  const url = await cluster.createDatabase('clean');
  const started = Date.now();
  let startupMs = 0;
  const run = spawnIngest(streams, url, (line) => {
    if (line.msg === 'ingest started') startupMs = Date.now() - started;
  });
  const code = await run.exited;
  if (code !== 0) throw new Error(`the clean ingest exited with ${code}: ${JSON.stringify(run.lines.at(-1))}`);
  const files = run.lines.filter((l) => l.msg === 'record file ingested').length;
  const ms = Date.now() - started;
  return { tables: await allTables(url), ms, startupMs, fileMs: (ms - startupMs) / Math.max(files, 1), url, files };
}

export interface CleanRun {
  readonly tables: Record<string, unknown[]>;
  readonly url: string;
  readonly files: number;
  /** The whole run, the start of the process until its first log line, and the mean time per file. */
  readonly ms: number;
  readonly startupMs: number;
  readonly fileMs: number;
}

/**
 * `kills` runs, each SIGKILLed at a random time between its start and its third file (the process starting, loading
 * its state, mid-file, mid-commit), then one run to the end.
 */
export async function killedRuns(
  cluster: Cluster,
  streams: string,
  clean: CleanRun,
  kills: number,
  random: () => number,
): Promise<CheckResult & { differing: number }> {
  const url = await cluster.createDatabase('killed');
  let killedMidway = 0;
  for (let i = 0; i < kills; i++) {
    const run = spawnIngest(streams, url);
    const window = clean.startupMs + 3 * clean.fileMs;
    const timer = setTimeout(() => run.child.kill('SIGKILL'), Math.round(random() * window));
    const code = await run.exited;
    clearTimeout(timer);
    if (code === null) killedMidway++;
  }
  const last = spawnIngest(streams, url);
  const code = await last.exited;
  const differing = differingTables(clean.tables, await allTables(url));
  const ok = code === 0 && differing.length === 0;
  return {
    ok,
    differing: differing.length,
    line: `ingest killed ${kills} times (${killedMidway} mid-run), then finished: ${differing.length} of ${Object.keys(clean.tables).length} tables differ from a clean run${differing.length ? ` (${differing.join(', ')})` : ''}${code === 0 ? '' : `; the last run exited with ${code}`}`,
  };
}

/** Stops Postgres once the ingest has written its first file, starts it `downMs` later, and lets the ingest finish. */
export async function postgresRestart(
  cluster: Cluster,
  streams: string,
  clean: { tables: Record<string, unknown[]> },
  downMs: number,
): Promise<CheckResult> {
  const url = await cluster.createDatabase('restarted');
  let stopped: Promise<void> | undefined;
  const run = spawnIngest(streams, url, (line) => {
    if (line.msg === 'record file ingested' && !stopped) stopped = cluster.stop();
  });
  while (!stopped) {
    if (run.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await stopped;
  await new Promise((resolve) => setTimeout(resolve, downMs));
  await cluster.start();
  const code = await run.exited;
  const waits = run.lines.filter((l) => l.msg === 'database unavailable');
  const differing = differingTables(clean.tables, await allTables(url));
  const ok = stopped !== undefined && code === 0 && waits.length > 0 && differing.length === 0;
  const database = waits[0]?.database ?? 'no database';
  return {
    ok,
    line: `postgres stopped for ${Math.round(downMs / 1000)} s mid-ingest: ${waits.length} waits logged (${database}), the ingest ${code === 0 ? 'finished by itself' : `exited with ${code}`}, ${differing.length} tables differ from a clean run`,
  };
}
