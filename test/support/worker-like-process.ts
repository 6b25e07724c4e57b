import { runProcess } from '../../infrastructure/extractor/run-process.js';

/**
 * Stands in for a worker process: runs a long child through runProcess (the
 * child starts a grandchild of its own, as yt-dlp starts ffmpeg) and prints
 * their pids, then waits to be killed.
 */
const script = 'sleep 300 & echo "$!"; echo "$$"; wait';
void runProcess('/bin/sh', ['-c', script], { onStdoutLine: (line) => process.stdout.write(`${line}\n`) });
