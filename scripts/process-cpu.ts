/**
 * CPU seconds spent so far by processes, from Linux's /proc (undefined elsewhere): the benchmarks report
 * CPU per unit of work beside wall-clock rates, which stay comparable when other work shares the cores.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on every Linux build that matters). */
const TICKS = 100;

/** The fields of /proc/<pid>/stat after the command name (parenthesised, may contain spaces): index 0 is field 3. */
function statFields(pid: number | string): number[] {
  return fieldsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

function fieldsOf(stat: string): number[] {
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}

/** utime + stime (fields 14–15), and with `children` cutime + cstime (16–17), in ticks. */
function ticksOf(fields: readonly number[], children: boolean): number {
  const own = (fields[11] ?? 0) + (fields[12] ?? 0);
  return children ? own + (fields[13] ?? 0) + (fields[14] ?? 0) : own;
}

/**
 * CPU seconds of a Postgres server: the postmaster, its live children (backends, WAL writer, checkpointer…)
 * and the children it has reaped. `dataDir` holds `postmaster.pid`.
 */
export function postgresCpuSeconds(dataDir: string): number | undefined {
  try {
    const master = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let ticks = ticksOf(statFields(master), true);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = statFields(entry);
        if (fields[1] === master) ticks += ticksOf(fields, false);
      } catch {
        // the process ended while listing
      }
    }
    return ticks / TICKS;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of the live descendants of this process whose command is `name` (workerd, which Miniflare starts),
 * with the children they have reaped; undefined without /proc.
 */
export function descendantCpuSeconds(name: string): number | undefined {
  try {
    const processes = new Map<number, { parent: number; command: string; ticks: number }>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = fieldsOf(stat);
        const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        processes.set(Number(entry), { parent: fields[1] ?? 0, command, ticks: ticksOf(fields, true) });
      } catch {
        // the process ended while listing
      }
    }
    const descends = (pid: number): boolean => {
      for (let at = processes.get(pid)?.parent; at !== undefined && at > 1; at = processes.get(at)?.parent) {
        if (at === process.pid) return true;
      }
      return false;
    };
    let ticks = 0;
    for (const [pid, info] of processes) if (info.command === name && descends(pid)) ticks += info.ticks;
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
export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}
