import { randomBytes, timingSafeEqual } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Container } from '../composition/container.js';
import type { Logger } from '../../application/ports/logger.js';
import { adminCommand } from './admin-command.js';
import { auditCommand } from './audit-command.js';
import type { CliCommand } from './cli-command.js';

/** The CLIs the embedded service runs for other processes, which cannot open its database. */
const ADMIN_ENDPOINT_COMMANDS: Readonly<Record<string, CliCommand>> = {
  admin: adminCommand,
  audit: auditCommand,
};

/** Written beside the database, readable by its owner only: where the endpoint listens and the token it wants. */
export const ADMIN_ENDPOINT_FILE = 'admin-endpoint.json';

export interface AdminEndpointAddress {
  url: string;
  token: string;
  pid: number;
}

export interface CliRequest {
  tool: string;
  args: string[];
}

export interface CliAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Runs `npm run admin` and `npm run audit` inside the embedded service:
 * `POST /cli {tool, args}` answers `{exitCode, stdout, stderr}`. It listens
 * on loopback only, on a port of the system's choosing, and wants the random
 * token written with the address in the data directory, so only a user who
 * can read that directory can use it.
 */
export async function startAdminEndpoint(options: {
  directory: string;
  container: Container;
  logger: Logger;
}): Promise<{ stop(): Promise<void> }> {
  const token = randomBytes(32).toString('hex');
  const server = createServer((request, response) => {
    handle(request, response, token, options.container).catch((error: unknown) => {
      options.logger.error({ err: error }, 'Admin endpoint failed');
      if (!response.headersSent) answer(response, 500, { error: 'The command failed' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const file = path.join(options.directory, ADMIN_ENDPOINT_FILE);
  const address: AdminEndpointAddress = { url: `http://127.0.0.1:${port}`, token, pid: process.pid };
  // Written whole under another name first, so a reader never sees half a file.
  await writeFile(`${file}.tmp`, JSON.stringify(address), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  options.logger.info({ url: address.url }, 'Admin endpoint for the CLIs listening on loopback');
  return {
    async stop() {
      await rm(file, { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  token: string,
  container: Container,
): Promise<void> {
  if (request.method !== 'POST' || request.url !== '/cli') return answer(response, 404, { error: 'Not found' });
  if (!hasToken(request.headers.authorization, token))
    return answer(response, 401, { error: 'Missing or wrong admin token' });
  const body = await readBody(request);
  if (body === null) return answer(response, 413, { error: 'Request body too large' });
  let parsed: Partial<CliRequest>;
  try {
    parsed = JSON.parse(body) as Partial<CliRequest>;
  } catch {
    return answer(response, 400, { error: 'Request body must be JSON' });
  }
  const command = typeof parsed.tool === 'string' ? ADMIN_ENDPOINT_COMMANDS[parsed.tool] : undefined;
  if (command === undefined)
    return answer(response, 400, { error: `tool must be one of: ${Object.keys(ADMIN_ENDPOINT_COMMANDS).join(', ')}` });
  if (!Array.isArray(parsed.args) || !parsed.args.every((arg) => typeof arg === 'string'))
    return answer(response, 400, { error: 'args must be an array of strings' });
  let stdout = '';
  let stderr = '';
  const exitCode = await command(parsed.args, container, {
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  answer(response, 200, { exitCode, stdout, stderr } satisfies CliAnswer);
}

function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
