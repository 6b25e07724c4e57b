import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a program to its end and answers its output; throws with its stderr when it fails. */
export async function runCommand(
  file: string,
  args: string[],
  options: { asUser?: string; timeoutMs?: number } = {},
): Promise<string> {
  // PostgreSQL refuses to run as root: as root, run its programs as their own user.
  const [program, argv] =
    options.asUser !== undefined && process.getuid?.() === 0
      ? ['runuser', ['-u', options.asUser, '--', file, ...args]]
      : [file, args];
  try {
    const { stdout } = await run(program, argv, { timeout: options.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`${file} ${args.join(' ')} failed: ${stderr.trim() || (error as Error).message}`);
  }
}
