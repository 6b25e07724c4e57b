import assert from 'node:assert/strict';
import type { EventStore, RecordedEvent } from '../../../application/ports/event-store.js';
import type { AddOnId, PlanId } from '../../../domain/account/plan.js';
import type { Overrides } from '../../../infrastructure/composition/overrides.js';
import { API_PREFIX } from '../../../infrastructure/http/create-http-app.js';
import { assertMatchesOpenApi } from '../response-validator.js';
import { givenAccount } from '../givens/given-account.js';
import { type InMemoryService, startInMemoryService } from './in-memory-service.js';

export interface ApiRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Under the API's prefix, e.g. `/download`. */
  path: string;
  /** Sent as the bearer key; none sends no Authorization header. */
  apiKey?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiOutcome {
  status: number;
  body: unknown;
  /** The events the request appended, in the store's order. */
  appended: RecordedEvent[];
}

/** What `then` checks: the status, the body's fields named (others are not compared), and the types of the events appended. */
export interface ApiExpectation {
  status: number;
  body?: Record<string, unknown>;
  events: readonly string[];
}

/**
 * given(events in the store).when(a request).then(a response and the events appended), against the real API: every
 * feature's routes, use cases, deciders and projections, on an in-memory event store. Each given waits until the
 * read models show it, so a request reads what a client would read once the service settled. Every response must
 * match the OpenAPI document's schema for its operation and status.
 */
export class ApiSpecification {
  private constructor(private readonly service: InMemoryService) {}

  static async start(overrides: Overrides = {}): Promise<ApiSpecification> {
    return new ApiSpecification(await startInMemoryService(overrides));
  }

  /** An account with a working key; starter plan, no add-ons unless asked. */
  async givenAccount(
    options: { plan?: PlanId; addOns?: AddOnId[] } = {},
  ): Promise<{ accountId: string; apiKey: string }> {
    const { key: apiKey, keyPrefix } = this.service.secrets.generate();
    const key = {
      keyId: `key-${keyPrefix}`,
      keyPrefix,
      keyHash: this.service.secrets.hash(apiKey),
      encryptedKey: this.service.secrets.encrypt(apiKey),
    };
    const accountId = await givenAccount(this.service.store, { ...options, key });
    await this.service.settle();
    return { accountId, apiKey };
  }

  /** Appends what `write` decides (see test/support/givens), then waits until the read models show it. */
  async given<T>(write: (store: EventStore) => Promise<T>): Promise<T> {
    const written = await write(this.service.store);
    await this.service.settle();
    return written;
  }

  when(request: ApiRequest): { then(expected: ApiExpectation): Promise<ApiOutcome> } {
    return {
      // biome-ignore lint/suspicious/noThenProperty: the given/when/then wording; this object is never awaited.
      then: async (expected) => {
        const outcome = await this.send(request);
        assert.equal(outcome.status, expected.status, `status; body: ${JSON.stringify(outcome.body)}`);
        if (expected.body !== undefined)
          assert.deepEqual(pick(outcome.body, Object.keys(expected.body)), expected.body);
        assert.deepEqual(
          outcome.appended.map((event) => event.type),
          expected.events,
        );
        return outcome;
      },
    };
  }

  stop(): Promise<void> {
    return this.service.stop();
  }

  private async send(request: ApiRequest): Promise<ApiOutcome> {
    const head = await this.service.store.headPosition();
    const headers: Record<string, string> = { ...request.headers };
    if (request.apiKey !== undefined) headers.Authorization = `Bearer ${request.apiKey}`;
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.service.url}${API_PREFIX}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    });
    const text = await response.text();
    const body: unknown = text === '' ? null : JSON.parse(text);
    assertMatchesOpenApi(request.method, `${API_PREFIX}${request.path}`, response.status, body, response.headers);
    return { status: response.status, body, appended: await this.service.store.readAll({ after: head }) };
  }
}

function pick(body: unknown, keys: readonly string[]): Record<string, unknown> {
  const record = (body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => key in record).map((key) => [key, record[key]]));
}
