import { readFile, readdir, readlink } from 'node:fs/promises';

/** Names of this machine's processes whose command line mentions `text` or whose working directory lies under `dir`. */
export async function processesMentioning(text: string, dir?: string): Promise<string[]> {
  const names: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)) {
    try {
      const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
      const cwd = dir === undefined ? '' : await readlink(`/proc/${pid}/cwd`).catch(() => '');
      if (commandLine.includes(text) || (dir !== undefined && cwd.startsWith(dir)))
        names.push((await readFile(`/proc/${pid}/comm`, 'utf8')).trim());
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return names;
}

/** Names of this machine's processes working under `dir` (a service's work directory): its own runs, never another test's or service's. */
export async function processesWorkingIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)) {
    try {
      if ((await readlink(`/proc/${pid}/cwd`)).startsWith(dir))
        names.push((await readFile(`/proc/${pid}/comm`, 'utf8')).trim());
    } catch {
      // Gone meanwhile, or not ours to look at.
    }
  }
  return names;
}

/** Whether a process with this id exists (a zombie not yet reaped counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process with this id runs: neither gone nor a zombie (an orphan's is reaped whenever its new parent gets to it). */
export async function isRunning(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z /.test(stat);
}

/** This process's children (a test service runs in it), with their command lines. */
export async function ownChildren(): Promise<Array<{ pid: number; commandLine: string }>> {
  const children: Array<{ pid: number; commandLine: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const [status, commandLine] = await Promise.all([
      readFile(`/proc/${entry}/status`, 'utf8'),
      readFile(`/proc/${entry}/cmdline`, 'utf8'),
    ]).catch(() => ['', '']);
    const parent = /^PPid:\s+(\d+)$/m.exec(status)?.[1];
    if (Number(parent) === process.pid)
      children.push({ pid: Number(entry), commandLine: commandLine.split('\0').join(' ').trim() });
  }
  return children;
}
