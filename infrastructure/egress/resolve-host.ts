import { Resolver } from 'node:dns/promises';
import { HostsFile } from './hosts-file.js';

/** Every address a host name resolves to; rejects with a HostLookupError when it cannot tell. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** A name the resolver could not turn into addresses: a fault of the lookup, not a judgement on the target. */
export class HostLookupError extends Error {
  constructor(
    readonly hostname: string,
    /** The resolver's code (`ENOTFOUND`, `ESERVFAIL`, `ETIMEOUT`, …), or `ENODATA` for an empty answer. */
    readonly code: string,
  ) {
    super(`${hostname} could not be resolved (${code})`);
    this.name = 'HostLookupError';
  }

  /** No server answered in time, rather than one answering with an error. */
  get timedOut(): boolean {
    return this.code === 'ETIMEOUT';
  }
}

export interface HostResolverOptions {
  /** The DNS servers to ask (`ip` or `ip:port`); the system's (resolv.conf) when absent. */
  servers?: string[];
  /** How long the first try waits for an answer; later tries wait longer (c-ares doubles it). */
  timeoutMs?: number;
  tries?: number;
  hosts?: HostsFile;
}

/**
 * Resolves as the system would, but never on the thread pool: `dns.lookup`
 * runs getaddrinfo on libuv's 4 threads, which a slow resolver fills, stalling
 * file I/O with it, and it has no timeout. This asks DNS through c-ares with
 * a bounded wait (2 s, then 4 s), after the hosts file, and answers
 * `localhost` and `*.localhost` with loopback itself (RFC 6761), as
 * getaddrinfo does. Both address families are asked; an answer for either
 * is enough.
 */
export function hostResolver(options: HostResolverOptions = {}): ResolveHost {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers !== undefined) resolver.setServers(options.servers);
  const hosts = options.hosts ?? new HostsFile();
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const listed = await hosts.addresses(name);
    if (listed.length > 0) return listed;
    if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const addresses = [v4, v6].flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length > 0) return addresses;
    throw new HostLookupError(name, lookupCode(v4, v6));
  };
}

/** The code that says most: a timeout on either family, else the IPv4 query's error. */
function lookupCode(...answers: PromiseSettledResult<string[]>[]): string {
  const codes = answers.map((answer) =>
    answer.status === 'rejected' ? String((answer.reason as NodeJS.ErrnoException).code ?? 'EFAIL') : 'ENODATA',
  );
  return codes.includes('ETIMEOUT') ? 'ETIMEOUT' : codes[0];
}
