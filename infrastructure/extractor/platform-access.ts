import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beatWhile } from '../../application/beat-while.js';
import { KeyedMutex } from '../../application/keyed-mutex.js';
import { ExtractionError } from '../../application/ports/extractor/extraction-error.js';
import { sleep } from '../system/sleep.js';
import { mergeIntoCookieJar } from './merge-into-cookie-jar.js';
import { type PrivateProxyOption, privateProxyOption } from './private-proxy-option.js';
import { forPlatform, platformOf } from './platform-of.js';
import type { PlatformAccessSettings } from '../config/sections/platform-access.js';

/** Per platform (a host, see platformOf), with `*` for every platform. */
export type { PlatformAccessSettings } from '../config/sections/platform-access.js';

export interface PlatformAccessObserver {
  botCheck(platform: string, proxy: string | undefined): void;
}

export interface AdmitOptions {
  /** False refuses at once during a back-off, for lookups a client is waiting on. */
  waitForPlatform: boolean;
  signal?: AbortSignal;
  /** Called now and then while the run waits for its turn, so a queued job can say it is still alive. */
  onWaiting?: () => void;
}

/** What one run gets, and what it reports when it ends. */
export interface RunAccess {
  args: string[];
  finish(stderr: string | null): Promise<void>;
}

/** A run's place on its platform, held from its start until it reports how it ended. */
export interface PlatformTurn {
  /** Gives the place up; a bot check in `stderr` backs the platform off and cools `proxy` down. */
  finish(stderr: string | null, proxy?: string): void;
}

/** The platform's own words for "this server is suspected of being a bot", and HTTP 429. */
const BOT_CHECK = /not a bot|captcha|http error 429|too many requests|session has been rate-limited/i;

export function isBotCheck(stderr: string): boolean {
  return BOT_CHECK.test(stderr.replace(/\u2019/g, "'"));
}

/**
 * Cookies, proxies, pacing and back-off per platform for yt-dlp runs.
 *
 * Cookies: each run works on a private copy of a jar from the platform's
 * pool; when yt-dlp refreshed it, the changes are merged back into the jar
 * under a lock held across processes and the file replaced whole (write,
 * then rename), so runs at once, in this process or others, neither lose
 * each other's cookies nor leave a torn file.
 */
export class PlatformAccess {
  private readonly turns = new Map<string, number>();
  private readonly proxyCoolUntil = new Map<string, number>();
  private readonly backoffUntil = new Map<string, number>();
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly lastStart = new Map<string, number>();
  private readonly jarLocks = new KeyedMutex();

  constructor(
    private readonly settings: PlatformAccessSettings,
    private readonly observer: PlatformAccessObserver = { botCheck: () => undefined },
    private readonly now: () => number = Date.now,
    /** The egress proxy every run is sent through, chained to the proxy picked for it; none in tests of the pools alone. */
    private readonly egress?: { proxyUrl(upstream?: string): Promise<string> },
  ) {}

  /** Milliseconds left of the platform's back-off; 0 when none. */
  backoffRemainingMs(platform: string): number {
    return Math.max(0, (this.backoffUntil.get(platform) ?? 0) - this.now());
  }

  /** Platforms that drew a bot check since start-up. */
  platformsBackedOff(): string[] {
    return [...this.backoffUntil.keys()];
  }

  /**
   * Waits for the platform (back-off, concurrency, spacing). `waitForPlatform`
   * false refuses at once during a back-off, for lookups a client is waiting
   * on. Runs that bring their own proxy and cookies (the warm helpers) take
   * only this.
   */
  async admit(url: string, options: AdmitOptions): Promise<PlatformTurn> {
    const platform = platformOf(url) ?? '*';
    await beatWhile(this.waitForTurn(platform, options), options.onWaiting);
    let finished = false;
    return {
      finish: (stderr, proxy) => {
        if (finished) return;
        finished = true;
        try {
          if (stderr !== null && isBotCheck(stderr)) this.recordBotCheck(platform, proxy);
        } finally {
          this.releaseSlot(platform);
        }
      },
    };
  }

  /** Admits the run (see admit) and hands out a proxy and a cookie jar from the platform's pools. */
  async begin(url: string, options: AdmitOptions & { scratchDir: string }): Promise<RunAccess> {
    const platform = platformOf(url) ?? '*';
    const turn = await this.admit(url, options);
    let proxyOption: PrivateProxyOption | null = null;
    try {
      const args: string[] = [];
      const proxy = this.pickProxy(platform);
      const routed = this.egress === undefined ? proxy : await this.egress.proxyUrl(proxy);
      if (routed !== undefined) {
        proxyOption = await privateProxyOption(routed, options.scratchDir);
        args.push(...proxyOption.args);
      }
      const jar = await this.checkOutJar(platform, options.scratchDir);
      if (jar !== null) args.push('--cookies', jar.copy);
      let finished = false;
      return {
        args,
        finish: async (stderr) => {
          if (finished) return;
          finished = true;
          try {
            await proxyOption?.remove();
            if (jar !== null) await this.checkInJar(jar);
          } finally {
            turn.finish(stderr, proxy);
          }
        },
      };
    } catch (error) {
      await proxyOption?.remove();
      turn.finish(null);
      throw error;
    }
  }

  /** The back-off, then a slot, then the spacing; the slot is given back when a later wait is cut short. */
  private async waitForTurn(platform: string, options: AdmitOptions): Promise<void> {
    await this.waitOutBackoff(platform, options);
    await this.takeSlot(platform, options.signal);
    try {
      await this.keepSpacing(platform, options.signal);
    } catch (error) {
      this.releaseSlot(platform);
      throw error;
    }
  }

  private async waitOutBackoff(platform: string, options: AdmitOptions): Promise<void> {
    for (
      let remaining = this.backoffRemainingMs(platform);
      remaining > 0;
      remaining = this.backoffRemainingMs(platform)
    ) {
      if (!options.waitForPlatform) {
        const wait = `Retry in ${Math.ceil(remaining / 1000)} s`;
        // The client reads the message only: the wait goes in it.
        throw new ExtractionError(
          'NETWORK_ERROR',
          `The platform asked for a bot check; requests to it are paused. ${wait}`,
          wait,
        );
      }
      await sleep(remaining, options.signal);
      if (options.signal?.aborted === true) throw options.signal.reason;
    }
  }

  private async takeSlot(platform: string, signal?: AbortSignal): Promise<void> {
    const limit = forPlatform(this.settings.concurrency, platform) ?? 0;
    while (limit > 0 && (this.running.get(platform) ?? 0) >= limit) {
      signal?.throwIfAborted();
      await this.slotFreed(platform, signal);
    }
    this.running.set(platform, (this.running.get(platform) ?? 0) + 1);
  }

  /** Resolves when a slot of the platform is given back; rejects, leaving the line, when `signal` aborts first. */
  private slotFreed(platform: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(platform) ?? [];
      this.waiting.set(platform, queue);
      const onAbort = () => {
        const index = queue.indexOf(wake);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(wake);
    });
  }

  private releaseSlot(platform: string): void {
    this.running.set(platform, Math.max(0, (this.running.get(platform) ?? 1) - 1));
    this.waiting.get(platform)?.shift()?.();
  }

  private async keepSpacing(platform: string, signal?: AbortSignal): Promise<void> {
    const spacing = forPlatform(this.settings.spacingMs, platform) ?? 0;
    const next = (this.lastStart.get(platform) ?? -Infinity) + spacing;
    // Claimed before waiting, so runs queued behind each other are spaced too.
    const start = Math.max(this.now(), next);
    this.lastStart.set(platform, start);
    if (start > this.now()) await sleep(start - this.now(), signal);
    if (signal?.aborted === true) throw signal.reason;
  }

  /**
   * The cookies file and proxy a warm helper looking up this URL starts with:
   * the platform's first cookies file, and the first of its proxies not
   * cooling down. Steady, unlike a command-line run's rotation, so helpers are
   * not restarted lookup by lookup; a bot check moves it to the next proxy.
   */
  helperChoice(url: string): { cookiesFile?: string; upstreamProxy?: string } {
    const platform = platformOf(url) ?? '*';
    const cookiesFile = forPlatform(this.settings.cookies, platform)?.[0];
    const upstreamProxy = this.firstProxyAvailable(forPlatform(this.settings.proxies, platform) ?? [], 0);
    return {
      ...(cookiesFile === undefined ? {} : { cookiesFile }),
      ...(upstreamProxy === undefined ? {} : { upstreamProxy }),
    };
  }

  /** True while the proxy sits out after a bot check. */
  coolingDown(proxy: string): boolean {
    return (this.proxyCoolUntil.get(proxy) ?? 0) > this.now();
  }

  /** Round-robin over the pool, skipping proxies cooling down; when all are, the one cooled down soonest. */
  private pickProxy(platform: string): string | undefined {
    const pool = forPlatform(this.settings.proxies, platform) ?? [];
    if (pool.length === 0) return undefined;
    return this.firstProxyAvailable(pool, this.nextTurn(`proxy:${platform}`));
  }

  /** The first proxy from `start` on (round the pool) not cooling down; when all are, the one cooled down soonest. */
  private firstProxyAvailable(pool: readonly string[], start: number): string | undefined {
    if (pool.length === 0) return undefined;
    for (let offset = 0; offset < pool.length; offset += 1) {
      const candidate = pool[(start + offset) % pool.length];
      if (!this.coolingDown(candidate)) return candidate;
    }
    return [...pool].sort((a, b) => (this.proxyCoolUntil.get(a) ?? 0) - (this.proxyCoolUntil.get(b) ?? 0))[0];
  }

  private recordBotCheck(platform: string, proxy: string | undefined): void {
    const now = this.now();
    this.backoffUntil.set(
      platform,
      Math.max(this.backoffUntil.get(platform) ?? 0, now + this.settings.botCheckBackoffMs),
    );
    if (proxy !== undefined) this.proxyCoolUntil.set(proxy, now + this.settings.proxyCooldownMs);
    this.observer.botCheck(platform, proxy);
  }

  private nextTurn(key: string): number {
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, turn + 1);
    return turn;
  }

  private async checkOutJar(
    platform: string,
    scratchDir: string,
  ): Promise<{ source: string; copy: string; base: string } | null> {
    const pool = forPlatform(this.settings.cookies, platform) ?? [];
    if (pool.length === 0) return null;
    const source = pool[this.nextTurn(`cookies:${platform}`) % pool.length];
    const copy = path.join(scratchDir, `.cookies-${process.pid}-${this.nextTurn('copies')}.txt`);
    const base = await this.jarLocks.run(source, async () => {
      await copyFile(source, copy);
      return readFile(copy, 'utf8');
    });
    return { source, copy, base };
  }

  private async checkInJar(jar: { source: string; copy: string; base: string }): Promise<void> {
    let theirs: string;
    try {
      theirs = await readFile(jar.copy, 'utf8');
    } catch {
      return;
    }
    if (theirs === jar.base) return;
    // The file lock alone would do; the mutex keeps this process's runs from polling it against each other.
    await this.jarLocks.run(jar.source, () => mergeIntoCookieJar(jar.source, jar.base, theirs));
  }
}
