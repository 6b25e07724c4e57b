import { readFile, readlink } from 'node:fs/promises';

/**
 * Who a process is beyond its pid, which another pid namespace (a CLI in another container sharing the volume, both
 * node as pid 1) or a later boot gives to another process. Each field is null where the system does not tell it
 * (no /proc): a judgement then falls back on the owner's heartbeat.
 */
export interface ProcessIdentity {
  pid: number;
  /** The kernel's boot id: a pid, a namespace id and a start time only mean something within one boot. */
  boot: string | null;
  /** The pid namespace's inode (`pid:[4026531836]`): the pid names this process only inside it. */
  pidNamespace: string | null;
  /** Field 22 of /proc/<pid>/stat, clock ticks after boot: tells this process from a later one given its pid. */
  startTime: string | null;
}

export async function ownIdentity(): Promise<ProcessIdentity> {
  const [boot, pidNamespace, startTime] = await Promise.all([
    readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
      (text) => text.trim() || null,
      () => null,
    ),
    readlink('/proc/self/ns/pid').catch(() => null),
    startTimeOf(process.pid),
  ]);
  return { pid: process.pid, boot, pidNamespace, startTime };
}

/** The start time of `pid` as this process sees it, or null when no such process is visible. */
export async function startTimeOf(pid: number): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name may hold spaces and parentheses: fields are counted after its last ')'; field 3 is the first.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.length > 19 ? fields[19] : null;
}

/** Whether `owner` and `here` share a boot and a pid namespace, so that its pid and start time can be checked here. */
export function checkableFrom(here: ProcessIdentity, owner: ProcessIdentity): boolean {
  return (
    here.boot !== null &&
    here.pidNamespace !== null &&
    owner.startTime !== null &&
    owner.boot === here.boot &&
    owner.pidNamespace === here.pidNamespace
  );
}

/** When the machine this process runs on booted (ms since the epoch), or null when not known. */
export async function bootedAt(): Promise<number | null> {
  const uptime = Number((await readFile('/proc/uptime', 'utf8').catch(() => '')).split(' ')[0]);
  return Number.isFinite(uptime) && uptime > 0 ? Date.now() - uptime * 1_000 : null;
}
