import { spawn } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const MAX_CAPTURE = 4 * 1024 * 1024;

/**
 * Runs a program without a shell, capturing bounded output. Aborting kills
 * the whole process group, so yt-dlp's ffmpeg children die with it.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; signal?: AbortSignal; onStdoutLine?: (line: string) => void; timeoutMs?: number } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = options.timeoutMs === undefined ? null : setTimeout(kill, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_CAPTURE) stdout += chunk;
      if (options.onStdoutLine !== undefined) {
        pending += chunk;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) options.onStdoutLine(line);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      // Keep the tail: the error line comes last.
      stderr = (stderr + chunk).slice(-MAX_CAPTURE);
    });
    child.on('error', (error) => {
      if (timer !== null) clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      if (timer !== null) clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ code, stdout, stderr });
    });
  });
}
