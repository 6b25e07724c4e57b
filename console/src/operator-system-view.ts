import type { Api } from './api.js';
import { byId, el } from './dom.js';
import { formatDate } from './format.js';

interface SystemStatus {
  queue: { kind: string; subjects: Array<{ subject: string; waiting: number; running: number }> };
  processorLagSeconds: Record<string, number> | null;
  processes: Array<{ role: string; host: string; pid: number; lastBeatAt: string }>;
  deadLetters: number;
  failingWebhooks: number;
}

interface DeadLetter {
  id: string;
  recordedAt: string;
  reason: string;
  subject: string | null;
  replayedAt: string | null;
}

interface FailingWebhook {
  jobId: string;
  url: string | null;
  state: string;
  attempts: number;
  statusCode: number | null;
  errorClass: string | null;
}

/** The running service for an operator: queue, lag, processes, dead letters (with replay), failing webhooks. */
export class OperatorSystemView {
  constructor(
    private readonly api: () => Api,
    private readonly onError: (message: string) => void,
  ) {}

  clear(): void {
    for (const id of ['op-queue', 'op-processes', 'op-dead-letters', 'op-webhooks']) byId(id).replaceChildren();
  }

  async reload(): Promise<void> {
    try {
      const [system, letters, webhooks] = await Promise.all([
        this.api().request<SystemStatus>('GET', '/system'),
        this.api().request<{ deadLetters: DeadLetter[] }>('GET', '/dead-letters?limit=50'),
        this.api().request<{ deliveries: FailingWebhook[] }>('GET', '/webhook-failures?limit=50'),
      ]);
      const lag = Object.values(system.processorLagSeconds ?? {});
      byId('op-system-summary').textContent =
        `Queue: ${system.queue.kind} · most lag ${lag.length === 0 ? 'n/a' : `${Math.max(...lag).toFixed(1)} s`} · ${system.deadLetters} dead letters · ${system.failingWebhooks} failing webhooks`;
      byId('op-queue').replaceChildren(
        ...system.queue.subjects.map((entry) =>
          el('li', {}, `${entry.subject}: ${entry.waiting} waiting, ${entry.running} running`),
        ),
      );
      byId('op-processes').replaceChildren(
        ...system.processes.map((process) =>
          el(
            'li',
            {},
            `${process.role} on ${process.host} (pid ${process.pid}) · last beat ${formatDate(process.lastBeatAt)}`,
          ),
        ),
      );
      byId('op-dead-letters').replaceChildren(...letters.deadLetters.map((letter) => this.letter(letter)));
      byId('op-webhooks').replaceChildren(
        ...webhooks.deliveries.map((delivery) =>
          el(
            'li',
            {},
            `job ${delivery.jobId} → ${delivery.url ?? '?'} · ${delivery.state} after ${delivery.attempts} · ${delivery.statusCode ?? delivery.errorClass ?? ''}`,
          ),
        ),
      );
    } catch (error) {
      this.onError(`The system could not be read: ${(error as Error).message}`);
    }
  }

  private letter(letter: DeadLetter): HTMLElement {
    const words = `#${letter.id} ${letter.subject ?? ''} · ${letter.reason} · ${formatDate(letter.recordedAt)}`;
    if (letter.replayedAt !== null) return el('li', {}, `${words} · replayed ${formatDate(letter.replayedAt)}`);
    const replay = el('button', { type: 'button', 'aria-label': `Replay dead letter ${letter.id}` }, 'Replay');
    replay.addEventListener('click', () => {
      if (!window.confirm(`Put dead letter ${letter.id} back on its queue?`)) return;
      this.api()
        .request('POST', `/dead-letters/${encodeURIComponent(letter.id)}/replay`)
        .then(() => this.reload())
        .catch((error: Error) => this.onError(`The dead letter could not be replayed: ${error.message}`));
    });
    return el('li', {}, `${words} `, replay);
  }
}
