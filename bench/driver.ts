import type { Knex } from 'knex';
import type { Container } from '../infrastructure/composition/container.js';
import { AccountAdministration } from '../application/accounts/account-administration.js';
import type { DownloadJobCommandHandler } from '../application/downloads/download-job-commands.js';
import type { EventStore } from '../application/ports/event-store.js';
import { TOKENS } from '../infrastructure/composition/tokens.js';
import { createContainer } from '../infrastructure/composition/create-container.js';
import { createLogger } from '../infrastructure/observability/create-logger.js';
import type { ServiceProcess } from './service-process.js';

/**
 * The bench's own handle on the service's database and event store (same
 * settings and master key as the service process), to open accounts and seed
 * jobs through the same use cases and commands the service runs.
 */
export class Driver {
  private constructor(
    readonly container: Container,
    private readonly service: ServiceProcess,
    private readonly closeContainer: () => Promise<void>,
  ) {}

  static async open(service: ServiceProcess): Promise<Driver> {
    const { container, close } = await createContainer(service.config, createLogger('silent'));
    return new Driver(container, service, close);
  }

  get db(): Knex {
    return this.container.resolve<Knex>(TOKENS.database);
  }

  get store(): EventStore {
    return this.container.resolve<EventStore>(TOKENS.eventStore);
  }

  get jobs(): DownloadJobCommandHandler {
    return this.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands);
  }

  /** Opens an account and waits until the service accepts its key. */
  async openAccount(
    planId: 'custom' | 'starter' = 'custom',
    addOns: 'channel_list'[] = [],
  ): Promise<{ accountId: string; apiKey: string; keyId: string }> {
    const created = await this.container
      .resolve(AccountAdministration)
      .openAccount({ name: 'Bench', email: 'bench@example.com', planId, addOns });
    await waitFor(
      async () =>
        (await fetch(`${this.service.api}/me`, { headers: { Authorization: `Bearer ${created.apiKey}` } })).status ===
        200,
    );
    return { accountId: created.accountId, apiKey: created.apiKey, keyId: created.keyId };
  }

  /** A job in the given state, written through the job's commands, once the read model shows it. */
  async seedJob(accountId: string, jobId: string, status: 'IN_QUEUE' | 'COMPLETED', url: string): Promise<void> {
    const now = () => new Date().toISOString();
    await this.jobs.handle(jobId, {
      type: 'SubmitDownload',
      data: {
        jobId,
        accountId,
        url,
        format: '720',
        startTime: null,
        endTime: null,
        language: null,
        webhookUrl: null,
        title: 'Bench video: a title of ordinary length',
        duration: 213,
        maxFileSizeBytes: 2e9,
        now: now(),
      },
    });
    if (status === 'COMPLETED') {
      await this.jobs.handle(jobId, {
        type: 'StartJob',
        data: { jobId, leaseId: 'bench-lease', messageId: 'm1', now: now() },
      });
      await this.jobs.handle(jobId, {
        type: 'CompleteJob',
        data: {
          jobId,
          fileKey: `${jobId}/media.mp4`,
          fileSize: 48_123_456,
          actualFormat: '720',
          mimeType: 'video/mp4',
          fileExtension: 'mp4',
          leaseId: 'bench-lease',
          now: now(),
        },
      });
    }
    await waitFor(async () => (await this.db('download_jobs').where({ job_id: jobId, status }).first()) !== undefined);
  }

  close(): Promise<void> {
    return this.closeContainer();
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the service');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
