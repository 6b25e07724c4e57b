import assert from 'node:assert/strict';

export interface StreamEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * A Server-Sent Events reader over fetch for tests: collects events and
 * comments as they arrive, and waits (with a deadline) for the ones a test
 * expects, never for a fixed time.
 */
export class EventStreamClient {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';
  private readonly controller = new AbortController();

  private constructor(readonly response: Response) {}

  static async open(url: string, headers: Record<string, string>): Promise<EventStreamClient> {
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    const client = new EventStreamClient(response);
    client.controller.signal.addEventListener('abort', () => controller.abort());
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) void client.read();
    return client;
  }

  close(): void {
    this.controller.abort();
  }

  async waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      assert.ok(
        Date.now() < deadline,
        `timed out waiting for ${what}; status ${this.response.status}, ended ${this.ended}; events so far: ${JSON.stringify(this.events.map((event) => event.data))}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The bodies received so far, parsed. */
  bodies(): any[] {
    return this.events.map((event) => JSON.parse(event.data));
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of this.response.body as unknown as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
          this.parse(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 2);
        }
      }
    } catch {
      // Aborted by the test.
    }
    this.ended = true;
  }

  private parse(block: string): void {
    const event: StreamEvent = { id: undefined, event: undefined, data: '' };
    let hasData = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) event.id = line.slice(4);
      else if (line.startsWith('event: ')) event.event = line.slice(7);
      else if (line.startsWith('data: ')) {
        event.data += line.slice(6);
        hasData = true;
      }
    }
    if (hasData) this.events.push(event);
  }
}
