import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { TestService } from './test-service.js';

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  log: () => string;
}

/**
 * A worker role in a process of its own, on a test service's database, queue
 * and directories (the service runs without one), so that a test can kill it
 * as a machine would lose it. `env` adds to or overrides its settings.
 */
export function startWorkerProcess(service: TestService, env: Record<string, string>): WorkerProcess {
  const { config } = service;
  const child = spawn(process.execPath, [path.resolve('build/infrastructure/main.js'), '--role', 'worker'], {
    env: {
      ...process.env,
      DATABASE_URL: config.storage.databaseUrl,
      DATABASE_POOL_SIZE: '3',
      NATS_URL: config.queue.natsUrl,
      NATS_STREAM: config.queue.natsStreamName,
      FILES_DIR: config.storage.filesDir,
      // Every process of a deployment shares the master key: the data keys it wraps open the events' personal fields.
      MASTER_KEY_FILE: config.security.masterKeyFile,
      WORK_DIR: config.storage.workDir,
      PUBLIC_BASE_URL: service.url,
      PORT: '0',
      HOST: '127.0.0.1',
      WARM_EXTRACTOR_PROCESSES: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  // Its log lines (on stdout) and anything it prints before it has a logger.
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, exited: new Promise((resolve) => child.on('exit', resolve)), log: () => log };
}
