import { readFile } from 'node:fs/promises';

/** A system user's ids from /etc/passwd. */
export async function getpwnam(name: string): Promise<{ uid: number; gid: number }> {
  const line = (await readFile('/etc/passwd', 'utf8')).split('\n').find((entry) => entry.startsWith(`${name}:`));
  if (line === undefined) throw new Error(`no user ${name}`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
