import { randomBytes } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { Buffer } from 'node:buffer';
import { type PrepareRequestFunctionOpts, type PrepareRequestFunctionResult, RequestError, Server } from 'proxy-chain';
import type { Logger } from '../../application/ports/logger.js';
import { type EgressTarget, isAllowListed, judgeEgress } from './egress-rule.js';
import { HostLookupError, type ResolveHost, hostResolver } from './resolve-host.js';

export interface EgressProxyOptions {
  /** EGRESS_ALLOW: targets (`host` or `host:port`) reachable whatever they resolve to. */
  allow: readonly string[];
  logger: Logger;
  /** Resolves a host name to every address; the hosts file, then DNS with a timeout, by default (tests give others). */
  resolve?: ResolveHost;
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
const LOOKUP_FAILURE_PREFIX = 'Egress lookup failed: ';
/**
 * The status lines of the proxy's own answers: yt-dlp and ffmpeg quote the reason phrase in their errors, which then
 * say why. A refusal is the rule's verdict; a failed lookup is a fault on the way (502, or 504 when the resolver did
 * not answer in time), which yt-dlp retries and the job's error classifies as passing.
 */
const STATUS_LINES: ReadonlyArray<readonly [number, string, string]> = [
  [403, REFUSAL_PREFIX, 'HTTP/1.1 403 Forbidden by the egress rule'],
  [502, LOOKUP_FAILURE_PREFIX, 'HTTP/1.1 502 Name resolution failed'],
  [504, LOOKUP_FAILURE_PREFIX, 'HTTP/1.1 504 Name resolution timed out'],
];

/** proxy-chain's server, its refusals and failed lookups worded so the job's error says what happened. */
class EgressServer extends Server {
  override sendSocketResponse(
    socket: Parameters<Server['sendSocketResponse']>[0],
    statusCode = 500,
    headers = {},
    message = '',
  ): void {
    const own = STATUS_LINES.find(([status, prefix]) => status === statusCode && message.startsWith(prefix));
    if (own === undefined) {
      super.sendSocketResponse(socket, statusCode, headers, message);
      return;
    }
    const body = Buffer.from(message);
    socket.end(
      `${own[2]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${message}`,
    );
  }
}

/**
 * The egress rule for everything yt-dlp and ffmpeg fetch: a loopback forward proxy (CONNECT and plain HTTP) that
 * refuses (403) a target resolving to any address that is not public, unless EGRESS_ALLOW lists it. The connection
 * goes to the addresses judged, so DNS rebinding changes nothing; a redirect is a new request, judged again. A run
 * given one of the operator's proxies (YT_DLP_PROXIES) is chained to it after the same judgement, and the upstream
 * is asked for the judged address, never the name, which it would resolve again. A name that cannot be resolved is
 * not refused: the lookup failed, which is answered 502 (504 on a timeout) for the run to retry.
 *
 * Runs name their upstream by the proxy URL's user name (an index), and every request must carry this process's
 * random password, so no other local program can use the proxy as a relay.
 */
export class EgressProxy extends EventEmitter {
  private readonly password = randomBytes(18).toString('base64url');
  private readonly upstreams: string[] = [];
  private readonly resolve: ResolveHost;
  private server: EgressServer | null = null;
  private started: Promise<void> | null = null;

  constructor(private readonly options: EgressProxyOptions) {
    super();
    this.resolve = options.resolve ?? hostResolver();
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
    if (isAllowListed(target, this.options.allow)) {
      this.emit('allowed', event);
      // Reachable whatever it resolves to: the name goes on as it is, resolved by whoever connects.
      return upstream === undefined ? {} : { upstreamProxyUrl: upstream };
    }
    const resolved = await this.resolveOrFail(hostname, event);
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
    if (upstream !== undefined) {
      pinUpstreamTarget(request, isHttp, resolved, port);
      return { upstreamProxyUrl: upstream };
    }
    // dns.lookup's type is a set of overloads; pinnedLookup answers the two forms net.connect calls.
    return { dnsLookup: pinnedLookup(resolved) as unknown as PrepareRequestFunctionResult['dnsLookup'] };
  }

  /** The target's addresses, or the request answered 502 (504 on a timeout) when the lookup fails. */
  private async resolveOrFail(hostname: string, event: EgressEvent): Promise<Resolved[]> {
    const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    const literal = isIP(bare);
    if (literal !== 0) return [{ address: bare, family: literal }];
    let failure: HostLookupError;
    try {
      const addresses = await this.resolve(bare);
      if (addresses.length > 0) return addresses.map((address) => ({ address, family: isIP(address) }));
      failure = new HostLookupError(bare, 'ENODATA');
    } catch (error) {
      failure =
        error instanceof HostLookupError
          ? error
          : new HostLookupError(bare, String((error as NodeJS.ErrnoException).code ?? 'EFAIL'));
    }
    this.options.logger.warn(
      { target: event.target, code: failure.code },
      failure.timedOut
        ? 'egress lookup timed out: no DNS answer for a host the extractor asked for; the run may retry'
        : 'egress lookup failed: a host the extractor asked for could not be resolved; the run may retry',
    );
    throw new RequestError(`${LOOKUP_FAILURE_PREFIX}${failure.message}`, failure.timedOut ? 504 : 502);
  }
}

/**
 * Points the request handed to the operator's proxy at the address judged (an IPv4 one when there is one, as the
 * upstream's network may lack IPv6): `CONNECT <ip>:<port>`, or a plain HTTP request's URL with the address as its
 * host, its Host header untouched. proxy-chain builds the upstream request from `request.url`. TLS inside a tunnel
 * is the client's, end to end, so its SNI and certificate check still name the host.
 */
function pinUpstreamTarget(
  request: PrepareRequestFunctionOpts['request'],
  isHttp: boolean,
  resolved: readonly Resolved[],
  port: number,
): void {
  const chosen = resolved.find((entry) => entry.family === 4) ?? resolved[0];
  const host = chosen.family === 6 ? `[${chosen.address}]` : chosen.address;
  if (!isHttp) {
    request.url = `${host}:${port}`;
    return;
  }
  const url = new URL(request.url ?? '');
  url.hostname = host;
  request.url = url.href;
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
