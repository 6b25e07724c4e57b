import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';

/** How long a read of the hosts file is trusted: it changes rarely, and a read per request would be waste. */
const REREAD_AFTER_MS = 5_000;

/**
 * The addresses the hosts file gives a name, as the system's own lookup
 * would find them: a DNS resolver alone never reads the file, and an
 * operator's entries there (a container's `extra_hosts`) must still hold.
 * A file that cannot be read counts as empty.
 */
export class HostsFile {
  private table: Promise<Map<string, string[]>> | null = null;
  private readAt = 0;

  constructor(
    private readonly path = '/etc/hosts',
    private readonly now: () => number = Date.now,
  ) {}

  async addresses(hostname: string): Promise<string[]> {
    if (this.table === null || this.now() - this.readAt > REREAD_AFTER_MS) {
      this.readAt = this.now();
      this.table = readFile(this.path, 'utf8').then(parseHostsFile, () => new Map());
    }
    return (await this.table).get(hostname.toLowerCase().replace(/\.$/, '')) ?? [];
  }
}

/** `address name [aliases…]` per line, `#` to the end of a line a comment; names are case-insensitive. */
export function parseHostsFile(text: string): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address === undefined || isIP(address) === 0) continue;
    for (const name of names) {
      const key = name.toLowerCase();
      const known = table.get(key) ?? [];
      if (!known.includes(address)) table.set(key, [...known, address]);
    }
  }
  return table;
}
