import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SoakHttp } from './soak-http.js';

const run = promisify(execFile);
const ADMIN = path.join(__dirname, '..', '..', 'infrastructure', 'cli', 'admin.js');

export interface SoakAccount {
  accountId: string;
  apiKey: string;
}

/** Opens accounts with the admin CLI, as an operator would, each with both add-ons, and waits until their keys work. */
export async function openAccounts(count: number, env: Record<string, string>, http: SoakHttp): Promise<SoakAccount[]> {
  const accounts: SoakAccount[] = [];
  for (let index = 1; index <= count; index += 1) {
    const { stdout } = await run(
      process.execPath,
      [
        ADMIN,
        'create-account',
        '--name',
        `Soak ${index}`,
        '--email',
        `soak${index}@example.com`,
        '--plan',
        'growth',
        '--add-on',
        'client_download',
        '--add-on',
        'channel_list',
      ],
      { env: { ...process.env, ...env, LOG_LEVEL: 'silent' } },
    );
    const created = JSON.parse(stdout) as SoakAccount;
    accounts.push({ accountId: created.accountId, apiKey: created.apiKey });
  }
  const deadline = Date.now() + 60_000;
  for (const account of accounts) {
    while ((await http.send('GET', '/me', { key: account.apiKey })).status !== 200) {
      if (Date.now() > deadline) throw new Error(`the key of account ${account.accountId} never worked`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return accounts;
}
