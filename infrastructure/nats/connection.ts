import {
  type JetStreamManager,
  type NatsConnection,
  type NatsError,
  RetentionPolicy,
  type StreamInfo,
  StorageType,
  connect,
  nanos,
} from 'nats';
import type { Logger } from '../../application/ports/logger.js';

export interface NatsConnectionOptions {
  /** One server URL, or several separated by commas. */
  url: string;
  /** Shown in the server's connection list. */
  name?: string;
  logger?: Logger;
  /** Keep trying when the server is not up yet, instead of failing the first connect. */
  waitOnFirstConnect?: boolean;
}

/**
 * Connects with unlimited reconnects: a NATS restart must not take the
 * workers or the relay down, since both resume where they were.
 */
export async function connectToNats(options: NatsConnectionOptions): Promise<NatsConnection> {
  const connection = await connect({
    servers: options.url.split(',').map((server) => server.trim()),
    name: options.name,
    reconnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    pingInterval: 20_000,
    waitOnFirstConnect: options.waitOnFirstConnect ?? false,
  });
  const { logger } = options;
  if (logger !== undefined) {
    void (async () => {
      for await (const status of connection.status()) {
        if (status.type === 'pingTimer' || status.type === 'reconnecting') continue;
        logger.info({ nats: status.type, data: status.data }, 'NATS connection status changed');
      }
    })();
  }
  return connection;
}

export interface WorkQueueStreamOptions {
  name: string;
  subjects: string[];
  /**
   * Publishes repeating a msgID within this window are dropped as duplicates.
   * Longer than any relay restart; repeats after it reach the idempotent
   * deciders instead. Default 10 minutes.
   */
  duplicateWindowMs?: number;
  /** How many servers of a cluster keep the stream (its consumers follow it). Default 1. */
  replicas?: number;
}

const DEFAULT_DUPLICATE_WINDOW_MS = 10 * 60_000;
const STREAM_NOT_FOUND = 10059;

/**
 * Creates the work-queue stream, or brings an existing one's subjects,
 * duplicate window and replicas up to date. Retention cannot be changed on an existing
 * stream, so a stream of another kind under the same name is an error.
 */
export async function ensureWorkQueueStream(
  jsm: JetStreamManager,
  options: WorkQueueStreamOptions,
): Promise<StreamInfo> {
  const duplicateWindow = nanos(options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS);
  const replicas = options.replicas ?? 1;
  const existing = await streamInfo(jsm, options.name);
  if (existing === null) {
    try {
      return await jsm.streams.add({
        name: options.name,
        subjects: options.subjects,
        retention: RetentionPolicy.Workqueue,
        storage: StorageType.File,
        duplicate_window: duplicateWindow,
        num_replicas: replicas,
      });
    } catch (error) {
      // Another process may have created it a moment ago; settle on its stream.
      if ((await streamInfo(jsm, options.name)) === null) throw error;
      return ensureWorkQueueStream(jsm, options);
    }
  }
  const { config } = existing;
  if (config.retention !== RetentionPolicy.Workqueue) {
    throw new Error(`Stream ${options.name} exists with ${config.retention} retention, not workqueue`);
  }
  const sameSubjects = [...config.subjects].sort().join('\n') === [...options.subjects].sort().join('\n');
  if (sameSubjects && config.duplicate_window === duplicateWindow && config.num_replicas === replicas) return existing;
  return jsm.streams.update(options.name, {
    ...config,
    subjects: options.subjects,
    duplicate_window: duplicateWindow,
    num_replicas: replicas,
  });
}

async function streamInfo(jsm: JetStreamManager, name: string): Promise<StreamInfo | null> {
  try {
    return await jsm.streams.info(name);
  } catch (error) {
    if ((error as NatsError).api_error?.err_code === STREAM_NOT_FOUND) return null;
    throw error;
  }
}
