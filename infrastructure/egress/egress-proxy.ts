import { randomBytes } from 'node:crypto';
import { type LookupAddress, type LookupOptions, lookup as systemLookup } from 'node:dns';
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { Buffer } from 'node:buffer';
import { type PrepareRequestFunctionOpts, type PrepareRequestFunctionResult, RequestError, Server } from 'proxy-chain';
import type { Logger } from '../../application/ports/logger.js';
import { type EgressTarget, judgeEgress } from './egress-rule.js';

export interface EgressProxyOptions {
  /** EGRESS_ALLOW: targets (`host` or `host:port`) reachable whatever they resolve to. */
  allow: readonly string[];
  logger: Logger;
  /** Resolves a host name to every address; the system resolver by default (tests give others). */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** What the proxy did with one request: `allowed` or `refused`, emitted with this. */
export interface EgressEvent {
  target: string;
  /** The URL of a plain HTTP request (a CONNECT names only its target). */
  url?: string;
  /** The operator's proxy the request went on through, when one did; never its credentials. */
  viaUpstream: boolean;
  reason?: string;
}

type Resolved = { address: string; family: number };

const REFUSAL_PREFIX = 'Egress refused: ';
/** The status line of a refusal: yt-dlp and ffmpeg quote its reason phrase in their errors, which then say why. */
const REFUSAL_STATUS_LINE = 'HTTP/1.1 403 Forbidden by the egress rule';

/** proxy-chain's server, its refusals worded so the job's error names the egress rule. */
class EgressServer extends Server {
  override sendSocketResponse(
    socket: Parameters<Server['sendSocketResponse']>[0],
    statusCode = 500,
    headers = {},
    message = '',
  ): void {
    if (statusCode !== 403 || !message.startsWith(REFUSAL_PREFIX)) {
      super.sendSocketResponse(socket, statusCode, headers, message);
      return;
    }
    const body = Buffer.from(message);
    socket.end(
      `${REFUSAL_STATUS_LINE}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${message}`,
    );
  }
}

/**
 * The egress rule for everything yt-dlp and ffmpeg fetch: a loopback forward proxy (CONNECT and plain HTTP) that
 * refuses (403) a target resolving to any address that is not public, unless EGRESS_ALLOW lists it. The connection
 * goes to the addresses judged, so DNS rebinding changes nothing; a redirect is a new request, judged again. A run
 * given one of the operator's proxies (YT_DLP_PROXIES) is chained to it after the same judgement.
 *
 * Runs name their upstream by the proxy URL's user name (an index), and every request must carry this process's
 * random password, so no other local program can use the proxy as a relay.
 */
export class EgressProxy extends EventEmitter {
  private readonly password = randomBytes(18).toString('base64url');
  private readonly upstreams: string[] = [];
  private server: EgressServer | null = null;
  private started: Promise<void> | null = null;

  constructor(private readonly options: EgressProxyOptions) {
    super();
  }

  /** Listens on a free loopback port; idempotent. */
  start(): Promise<void> {
    this.started ??= (async () => {
      const server = new EgressServer({
        port: 0,
        host: '127.0.0.1',
        prepareRequestFunction: (request) => this.prepare(request),
      });
      // A target or client that goes away mid-request is the run's failure, which yt-dlp reports; nothing for the proxy to add.
      server.on('requestFailed', () => undefined);
      await server.listen();
      // A process is kept alive by its work, never by this proxy (the command-line tools make one and never close it).
      server.server.unref();
      this.server = server;
    })();
    return this.started;
  }

  async close(): Promise<void> {
    await this.started?.catch(() => undefined);
    await this.server?.close(true);
    this.server = null;
  }

  /** The proxy URL a run is given, chained to `upstream` when the run has one. Waits until the proxy listens. */
  async proxyUrl(upstream?: string): Promise<string> {
    await this.start();
    return this.proxyUrlNow(upstream);
  }

  /**
   * The same, once `start` has settled. Before, a URL nothing listens on
   * (a reserved name), so a run that could not wait fails rather than going
   * out unchecked.
   */
  proxyUrlNow(upstream?: string): string {
    const user = upstream === undefined ? 'direct' : `upstream-${this.upstreamIndex(upstream)}`;
    const hostPort = this.server === null ? 'egress-proxy-not-started.invalid:9' : `127.0.0.1:${this.server.port}`;
    return `http://${user}:${this.password}@${hostPort}`;
  }

  private upstreamIndex(upstream: string): number {
    const known = this.upstreams.indexOf(upstream);
    if (known >= 0) return known;
    this.upstreams.push(upstream);
    return this.upstreams.length - 1;
  }

  private async prepare({
    username,
    password,
    hostname,
    port,
    isHttp,
    request,
  }: PrepareRequestFunctionOpts): Promise<PrepareRequestFunctionResult> {
    if (password !== this.password) return { requestAuthentication: true, failMsg: 'Proxy credentials required' };
    const upstream = username.startsWith('upstream-')
      ? this.upstreams[Number(username.slice('upstream-'.length))]
      : undefined;
    if (username !== 'direct' && upstream === undefined) throw new RequestError('Unknown upstream proxy', 407);
    const target: EgressTarget = { hostname, port };
    const event: EgressEvent = {
      target: `${hostname}:${port}`,
      ...(isHttp ? { url: request.url } : {}),
      viaUpstream: upstream !== undefined,
    };
    let resolved: Resolved[];
    try {
      resolved = await this.resolveAll(hostname);
    } catch {
      resolved = [];
    }
    const decision = judgeEgress(
      target,
      resolved.map((entry) => entry.address),
      this.options.allow,
    );
    if (!decision.ok) {
      this.options.logger.warn(
        { target: event.target, reason: decision.reason },
        'egress refused: the extractor asked for an address outside the egress rule',
      );
      this.emit('refused', { ...event, reason: decision.reason });
      throw new RequestError(`${REFUSAL_PREFIX}${decision.reason}`, 403);
    }
    this.emit('allowed', event);
    if (upstream !== undefined) return { upstreamProxyUrl: upstream };
    // Allow-listed targets resolve as usual; any other connects only to the addresses judged above.
    // dns.lookup's type is a set of overloads; pinnedLookup answers the two forms net.connect calls.
    return decision.allowListed
      ? {}
      : { dnsLookup: pinnedLookup(resolved) as unknown as PrepareRequestFunctionResult['dnsLookup'] };
  }

  private async resolveAll(hostname: string): Promise<Resolved[]> {
    const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    const literal = isIP(bare);
    if (literal !== 0) return [{ address: bare, family: literal }];
    if (this.options.resolve !== undefined)
      return (await this.options.resolve(bare)).map((address) => ({ address, family: isIP(address) }));
    return new Promise((resolve, reject) => {
      systemLookup(bare, { all: true, verbatim: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      );
    });
  }
}

/** A lookup that answers only the addresses already judged, in either of the forms net.connect asks for. */
function pinnedLookup(addresses: readonly Resolved[]) {
  return (
    _hostname: string,
    options: LookupOptions | number | undefined,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const asked = typeof options === 'number' ? options : options?.family;
    const family = asked === 'IPv4' ? 4 : asked === 'IPv6' ? 6 : (asked ?? 0);
    const fitting = family === 0 ? addresses : addresses.filter((entry) => entry.family === family);
    if (typeof options === 'object' && options.all === true) {
      callback(
        null,
        fitting.map((entry) => ({ address: entry.address, family: entry.family })),
      );
      return;
    }
    const first = fitting[0] ?? addresses[0];
    callback(null, first.address, first.family);
  };
}
