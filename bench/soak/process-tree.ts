import { readFile, readdir, readlink } from 'node:fs/promises';

/** The direct children of a process, from /proc/<pid>/task/<tid>/children. */
export async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children: number[] = [];
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of text.trim().split(/\s+/)) if (child !== '') children.push(Number(child));
  }
  return children;
}

export async function commandLineOf(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
}

/** The inodes of the TCP sockets a process holds open. */
export async function socketInodesOf(pid: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match !== null) inodes.add(match[1]);
  }
  return inodes;
}

/** The inode of the loopback TCP socket whose local port is `port`, from /proc/net/tcp. */
export async function inodeOfLocalPort(port: number): Promise<string | null> {
  const table = await readFile('/proc/net/tcp', 'utf8').catch(() => '');
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const localPort = Number.parseInt(fields[1].split(':')[1], 16);
    if (localPort === port) return fields[9];
  }
  return null;
}

/** Whether the process holds a TCP connection to 127.0.0.1:`port`. */
export async function connectedTo(pid: number, port: number): Promise<boolean> {
  const owned = await socketInodesOf(pid);
  const table = await readFile('/proc/net/tcp', 'utf8').catch(() => '');
  return table
    .split('\n')
    .slice(1)
    .some((line) => {
      const fields = line.trim().split(/\s+/);
      return fields.length >= 10 && Number.parseInt(fields[2].split(':')[1], 16) === port && owned.has(fields[9]);
    });
}
