import { spawn } from 'node:child_process';

/**
 * Kills process group `pgid` if this process dies first, even by SIGKILL,
 * which no handler in this process can see. A tiny shell waits for end of
 * file on a pipe that only this process holds open: the kernel closes it when
 * this process dies, however it dies, and the shell then kills the group.
 * `release` (after the group has ended) stops the watchdog without killing.
 */
export function watchProcessGroup(pgid: number): { release(): void } {
  const watchdog = spawn(
    '/bin/sh',
    ['-c', 'read -r _; kill -9 -"$1" 2>/dev/null', 'process-group-watchdog', String(pgid)],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own group, so that killing the watched group (timeouts, aborts) leaves it to be released normally.
      detached: true,
    },
  );
  // Without /bin/sh the run goes on unguarded, as it did before.
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  // Neither the watchdog nor its pipe keeps this process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    release() {
      watchdog.kill('SIGKILL');
      watchdog.stdin?.destroy();
    },
  };
}
