/**
 * CPU seconds spent so far by processes, from Linux's /proc (undefined elsewhere): the benchmarks report
 * CPU per unit of work beside wall-clock rates, which stay comparable when other work shares the cores.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on every Linux build that matters). */
const TICKS = 100;

/** utime, stime, cutime, cstime of a process (fields 14–17 of /proc/<pid>/stat), in ticks. */
function times(pid: number): [number, number, number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is parenthesised and may contain spaces; index 0 is field 3.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return [fields[11] ?? 0, fields[12] ?? 0, fields[13] ?? 0, fields[14] ?? 0];
}

/**
 * CPU seconds of a Postgres server: the postmaster, its live children (backends, WAL writer, checkpointer…)
 * and the children it has reaped. `dataDir` holds `postmaster.pid`.
 */
export function postgresCpuSeconds(dataDir: string): number | undefined {
  try {
    const master = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const [u, s, cu, cs] = times(master);
    let ticks = u + s + cu + cs;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (parent !== master) continue;
        const [childUser, childSystem] = times(Number(entry));
        ticks += childUser + childSystem;
      } catch {
        // the process ended while listing
      }
    }
    return ticks / TICKS;
  } catch {
    return undefined;
  }
}

/** CPU seconds of this process, all its threads. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** The 1, 5 and 15 minute load averages, as `uptime` shows them. */
export function loadAverage(): string | undefined {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return undefined;
  }
}
