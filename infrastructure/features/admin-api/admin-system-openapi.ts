import { Type } from '@sinclair/typebox';
import { closed } from '../../http/openapi/job-shapes.js';
import { definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import { cursorPageParameters, errorResponse, idPathParameter } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import {
  adminResponses,
  adminServers,
  adminWriteResponses,
  idempotencyKeyHeader,
  operatorSecurity,
} from './admin-openapi-kit.js';

/** The admin API's view of the running service: the queue, the processors, the processes, dead letters, webhooks. */

const ProcessHeartbeat = Type.Object(
  {
    processId: Type.String(),
    role: Type.String(),
    host: Type.String(),
    pid: Type.Integer(),
    startedAt: Type.String({ format: 'date-time' }),
    lastBeatAt: Type.String({ format: 'date-time' }),
  },
  closed,
);

const SystemStatus = Type.Object(
  {
    queue: Type.Object(
      {
        kind: stringEnum(['jetstream', 'in-process']),
        subjects: Type.Array(
          Type.Object(
            {
              subject: Type.String(),
              waiting: Type.Integer({ minimum: 0, description: 'Messages no worker holds yet.' }),
              running: Type.Integer({ minimum: 0, description: 'Messages a worker holds.' }),
            },
            closed,
          ),
        ),
      },
      closed,
    ),
    processorLagSeconds: Type.Union([Type.Record(Type.String(), Type.Number()), Type.Null()], {
      description:
        'How far behind the event store each projection and the relay are (PostgreSQL event store only; null otherwise).',
    }),
    processes: Type.Array(ref('ProcessHeartbeat', ProcessHeartbeat), {
      description: 'Worker, projector, API and sweeper processes heard from in the last minute.',
    }),
    deadLetters: Type.Integer({ minimum: 0 }),
    failingWebhooks: Type.Integer({ minimum: 0 }),
  },
  closed,
);

const DeadLetter = Type.Object(
  {
    id: Type.String(),
    recordedAt: Type.String({ format: 'date-time' }),
    reason: Type.String(),
    subject: nullable('string'),
    deliveries: nullable('integer'),
    body: Type.Unknown({ description: 'The message as it was queued.' }),
    replayedAt: nullable('string', { format: 'date-time' }),
  },
  closed,
);

const DeadLetterList = Type.Object(
  { deadLetters: Type.Array(ref('DeadLetter', DeadLetter)), total: Type.Integer(), nextCursor: nullable('string') },
  closed,
);

const ReplayedDeadLetter = Type.Object(
  { id: Type.String(), subject: Type.String(), replayedAt: Type.String({ format: 'date-time' }) },
  closed,
);

const FailingWebhook = Type.Object(
  {
    streamName: Type.String(),
    jobId: Type.String(),
    accountId: Type.String(),
    url: nullable('string'),
    event: nullable('string'),
    attempts: Type.Integer(),
    state: stringEnum(['attempting', 'retrying', 'ended', 'stopped', 'gave_up']),
    statusCode: nullable('integer'),
    errorClass: nullable('string'),
    detail: nullable('string'),
    failedAt: Type.String({ format: 'date-time' }),
    nextAttemptAt: nullable('string', { format: 'date-time' }),
  },
  closed,
);

const FailingWebhookList = Type.Object(
  {
    deliveries: Type.Array(ref('FailingWebhook', FailingWebhook)),
    total: Type.Integer(),
    nextCursor: nullable('string'),
  },
  closed,
);

const adminSystemSchemas = {
  ProcessHeartbeat,
  SystemStatus,
  DeadLetter,
  DeadLetterList,
  ReplayedDeadLetter,
  FailingWebhook,
  FailingWebhookList,
};

const common = { tags: ['Admin'], servers: adminServers, security: operatorSecurity };
const malformedPage = errorResponse('`limit` or `cursor` is malformed.', 'cursor is malformed');

const adminSystemPaths = definePaths({
  '/system': {
    get: {
      ...common,
      operationId: 'adminGetSystem',
      summary: 'Queue depth per subject, processor lag, live processes, dead letters and failing webhooks',
      description: 'Read from the queue, the checkpoints and the heartbeats now.',
      responses: {
        '200': { description: 'The service now.', content: jsonContent(ref('SystemStatus', SystemStatus)) },
        ...adminResponses,
      },
    },
  },
  '/dead-letters': {
    get: {
      ...common,
      operationId: 'adminListDeadLetters',
      summary: 'Work the queue gave up on, newest first',
      description: 'Each with its message and whether it was replayed.',
      parameters: cursorPageParameters('Dead letters'),
      responses: {
        '200': { description: 'A page.', content: jsonContent(ref('DeadLetterList', DeadLetterList)) },
        '400': malformedPage,
        ...adminResponses,
      },
    },
  },
  '/dead-letters/{deadLetterId}/replay': {
    post: {
      ...common,
      operationId: 'adminReplayDeadLetter',
      summary: 'Put a dead letter’s message back on its subject',
      description:
        'A worker takes it again and decides on the job as it is now (a job already ended stays ended). Once per letter.',
      parameters: [idPathParameter('deadLetterId', 'The dead letter’s id.'), idempotencyKeyHeader],
      responses: {
        '200': { description: 'Queued again.', content: jsonContent(ref('ReplayedDeadLetter', ReplayedDeadLetter)) },
        '404': errorResponse('No dead letter has that id.', 'Dead letter not found'),
        '409': errorResponse(
          'The letter was replayed already, or kept no message.',
          'This dead letter was replayed at …',
        ),
        ...adminWriteResponses,
      },
    },
  },
  '/webhook-failures': {
    get: {
      ...common,
      operationId: 'adminListWebhookFailures',
      summary: 'Webhook deliveries whose last attempt failed, latest first',
      description: 'Jobs’, batches’ and subscriptions’ alike; a later success removes the delivery from the list.',
      parameters: cursorPageParameters('Deliveries'),
      responses: {
        '200': { description: 'A page.', content: jsonContent(ref('FailingWebhookList', FailingWebhookList)) },
        '400': malformedPage,
        ...adminResponses,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AdminSystemPaths {}
  interface DocumentedSchemas extends AdminSystemSchemas {}
}
type AdminSystemPaths = typeof adminSystemPaths;
type AdminSystemSchemas = typeof adminSystemSchemas;

export const adminSystemOpenApi: OpenApiPart = { paths: adminSystemPaths, schemas: adminSystemSchemas };
