import { readFileSync, readdirSync } from 'node:fs';

interface ProcessStat {
  ppid: number;
  /** utime + stime + cutime + cstime: its own CPU and that of the children it has waited for. */
  seconds: number;
}

function readStat(pid: number | 'self'): ProcessStat | null {
  try {
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    // ppid is field 4 of stat, utime..cstime 14-17: 1 and 11-14 after the command name.
    const ticks = fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0);
    return { ppid: Number(fields[1]), seconds: ticks / 100 };
  } catch {
    return null;
  }
}

/** CPU seconds of a process and of the children it has waited for. */
export function waitedCpuSeconds(pid: number | 'self'): number {
  return readStat(pid)?.seconds ?? 0;
}

/**
 * CPU seconds used by a process and everything under it, from /proc: its own, its children's that it has waited for,
 * and those of each descendant still alive (a fork server's runs are waited for by the server, which lives on, so
 * the process's own figure alone would miss them).
 */
export function processTreeCpuSeconds(pid: number | 'self'): number {
  const root = readStat(pid);
  if (root === null) return 0;
  const rootPid = pid === 'self' ? process.pid : pid;
  const stats = new Map<number, ProcessStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat !== null) stats.set(Number(entry), stat);
  }
  let total = root.seconds;
  const pending = [rootPid];
  while (pending.length > 0) {
    const parent = pending.pop() as number;
    for (const [child, stat] of stats) {
      if (stat.ppid !== parent) continue;
      total += stat.seconds;
      pending.push(child);
    }
  }
  return total;
}
