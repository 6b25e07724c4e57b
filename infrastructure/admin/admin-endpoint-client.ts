import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliOutput } from './cli-command.js';
import { ADMIN_ENDPOINT_FILE, type AdminEndpointAddress, type CliAnswer } from './admin-endpoint.js';
import { dataDirectoryOwner } from '../embedded/data-directory-lock.js';

/**
 * The running embedded service's admin endpoint, or null when no process has
 * the database open (the caller may then open it). A service still starting
 * is waited for.
 */
export async function findAdminEndpoint(directory: string, waitMs = 60_000): Promise<AdminEndpointAddress | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const owner = await dataDirectoryOwner(directory);
    if (owner === null) return null;
    const address = await readAddress(directory);
    if (address?.pid === owner) return address;
    if (Date.now() > deadline)
      throw new Error(
        `The embedded database in ${directory} is open in process ${owner}, which offers no admin endpoint`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs a CLI in the service and relays its output; resolves to its exit code. */
export async function runThroughAdminEndpoint(
  address: AdminEndpointAddress,
  tool: string,
  args: string[],
  io: CliOutput,
): Promise<number> {
  const response = await fetch(`${address.url}/cli`, {
    method: 'POST',
    headers: { authorization: `Bearer ${address.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tool, args }),
  });
  const body = (await response.json()) as CliAnswer & { error?: string };
  if (response.status !== 200)
    throw new Error(`The service's admin endpoint answered ${response.status}: ${body.error ?? ''}`);
  io.out(body.stdout);
  io.err(body.stderr);
  return body.exitCode;
}

async function readAddress(directory: string): Promise<AdminEndpointAddress | null> {
  try {
    return JSON.parse(await readFile(path.join(directory, ADMIN_ENDPOINT_FILE), 'utf8')) as AdminEndpointAddress;
  } catch {
    return null;
  }
}
