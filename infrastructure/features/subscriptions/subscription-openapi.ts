import { Type } from '@sinclair/typebox';
import {
  MAX_CHECK_EVERY_MINUTES,
  MAX_LATEST_COUNT,
  MIN_CHECK_EVERY_MINUTES,
} from '../../../domain/subscription/settings.js';
import { MediaFormat, SubmitDownloadRequest } from '../../http/openapi/download-schemas.js';
import { closed } from '../../http/openapi/job-shapes.js';
import { defaulted, definePaths, jsonContent, nullable, ref, stringEnum } from '../../http/openapi/schema-kit.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import {
  authenticatedResponses,
  cursorPageParameters,
  errorResponse,
  responses,
  idPathParameter,
} from '../../http/openapi/shared-responses.js';

const { format, language, webhookUrl } = SubmitDownloadRequest.properties;

const checkEveryMinutes = Type.Integer({
  minimum: MIN_CHECK_EVERY_MINUTES,
  maximum: MAX_CHECK_EVERY_MINUTES,
  description: 'Minutes between two checks; each subscription checks at its own point of the interval.',
});

const CreateSubscriptionRequest = Type.Object(
  {
    channelUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'A channel, in the forms `POST /list-channel` takes.' }),
    ),
    playlistUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'A playlist: `https://{video_host}/playlist?list=<id>`.' }),
    ),
    format,
    language,
    webhookUrl,
    checkEveryMinutes: defaulted(checkEveryMinutes, 60),
    start: defaulted(
      Type.String({
        maxLength: 16,
        pattern: `^(new|latest:[0-9]{1,3})$`,
        description: `\`new\`: only videos that appear after the first check; \`latest:N\` (N 1-${MAX_LATEST_COUNT}): also the N newest the first check finds.`,
      }),
      'new',
    ),
  },
  {
    ...closed,
    description:
      'Exactly one of `channelUrl` and `playlistUrl`. `format`, `language` and `webhookUrl` apply to each job the subscription submits.',
  },
);

const ChangeSubscriptionRequest = Type.Object(
  {
    paused: Type.Optional(Type.Boolean({ description: '`true` pauses the checks, `false` resumes them.' })),
    checkEveryMinutes: Type.Optional(checkEveryMinutes),
    format: Type.Optional(ref('MediaFormat', MediaFormat, { description: 'The format of later jobs.' })),
    language: Type.Optional(
      Type.Union([language, Type.Null()], { description: 'An audio language for later jobs; null for the default.' }),
    ),
  },
  { ...closed, description: 'At least one field to change; the jobs already submitted keep theirs.' },
);

const LastCheck = Type.Object(
  {
    checkId: Type.String(),
    finishedAt: Type.String({ format: 'date-time' }),
    found: nullable('integer', { description: 'New videos it took; null when it failed.' }),
    failure: nullable('string', { description: 'Why it failed; the next check tries again.' }),
  },
  closed,
);

const SubscriptionJob = Type.Object(
  {
    jobId: Type.String({ description: 'Poll `GET /download/{jobId}`.' }),
    videoUrl: Type.String(),
    title: nullable('string'),
  },
  closed,
);

const Subscription = Type.Object(
  {
    subscriptionId: Type.String(),
    status: stringEnum(['active', 'paused']),
    source: Type.Object({ kind: stringEnum(['channel', 'playlist']), url: Type.String() }, closed),
    format: Type.String(),
    language: nullable('string'),
    webhookUrl: nullable('string'),
    checkEveryMinutes: Type.Integer(),
    start: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    pause: Type.Union([
      Type.Null(),
      Type.Object(
        {
          pausedBy: stringEnum(['user', 'subscription']),
          reason: nullable('string', { description: 'Why it paused itself (its credit ran out).' }),
          pausedAt: Type.String({ format: 'date-time' }),
        },
        closed,
      ),
    ]),
    nextCheckAt: nullable('string', { format: 'date-time', description: 'Null while paused or while a check runs.' }),
    checkStartedAt: nullable('string', { format: 'date-time', description: 'When the check under way started.' }),
    lastCheck: Type.Union([Type.Null(), ref('SubscriptionLastCheck', LastCheck)]),
    videosSeen: Type.Integer({ description: 'Videos its listings showed; none of them is taken twice.' }),
    videosWaiting: Type.Integer({ description: 'Found videos waiting for a pending slot.' }),
    videosRefused: Type.Integer({ description: 'Found videos whose submission was refused for good.' }),
    jobs: Type.Array(ref('SubscriptionJob', SubscriptionJob), { description: 'The jobs it submitted, oldest first.' }),
  },
  closed,
);

const SubscriptionPage = Type.Object(
  {
    subscriptions: Type.Array(ref('Subscription', Subscription)),
    total: Type.Integer(),
    nextCursor: nullable('string', { description: 'Pass as `cursor` for the next page; null on the last.' }),
  },
  closed,
);

const subscriptionIdParameter = idPathParameter(
  'subscriptionId',
  'The subscription, as `POST /subscriptions` answered it.',
);

const pageParameters = cursorPageParameters('Subscriptions');

const notFound = errorResponse('No such subscription, or another account’s, or deleted.', 'Subscription not found');
const common = authenticatedResponses;
const subscriptionBody = { description: 'The subscription.', content: jsonContent(ref('Subscription', Subscription)) };

const subscriptionSchemas = {
  CreateSubscriptionRequest,
  ChangeSubscriptionRequest,
  Subscription,
  SubscriptionLastCheck: LastCheck,
  SubscriptionJob,
  SubscriptionPage,
};

const subscriptionTag = {
  name: 'Subscriptions',
  description: 'A channel or playlist checked on a schedule: each new video becomes an ordinary download job.',
};

const subscriptionPaths = definePaths({
  '/subscriptions': {
    post: {
      operationId: 'createSubscription',
      tags: ['Subscriptions'],
      summary: 'Subscribe to a channel or playlist (an extension to the contract)',
      description:
        'Checks the source every `checkEveryMinutes` (first check at once). Each check lists its 30 newest items (more for `latest:N` on the first), ' +
        'charged as `POST /list-channel` is (1 `channel_list` unit per 10 items; needs that add-on), and submits a download job for each video it has not seen, ' +
        'with the checks, reservation and charge of `POST /download`. A video waits for the next check while the account has 100 downloads pending; ' +
        'when the credit runs out the subscription pauses itself with the reason. A plan allows a number of subscriptions: free none (it offers no listing), starter 10, growth 50, scale 200, custom 1000.',
      requestBody: {
        required: true,
        content: jsonContent(ref('CreateSubscriptionRequest', CreateSubscriptionRequest), {
          channelUrl: 'https://www.youtube.com/@someone',
          format: 'audio',
          checkEveryMinutes: 60,
        }),
      },
      responses: {
        '201': subscriptionBody,
        '400': errorResponse(
          'A missing, extra or malformed field; `error` names it.',
          'exactly one of channelUrl or playlistUrl must be given',
        ),
        '403': responses.addOnOrCreditLimit,
        '409': errorResponse(
          'The plan’s subscriptions are all in use.',
          "The account's plan allows 1 subscription; delete one before adding another",
        ),
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        ...common,
      },
    },
    get: {
      operationId: 'listSubscriptions',
      tags: ['Subscriptions'],
      summary: 'The account’s subscriptions, oldest first',
      description: 'Read from the read model, so a change a moment ago may show a moment later. Free.',
      parameters: pageParameters,
      responses: {
        '200': {
          description: 'A page of subscriptions.',
          content: jsonContent(ref('SubscriptionPage', SubscriptionPage)),
        },
        '400': errorResponse(
          '`limit` or `cursor` is malformed; `error` names it.',
          'cursor is malformed: pass the nextCursor of a previous page as given',
        ),
        ...common,
      },
    },
  },
  '/subscriptions/{subscriptionId}': {
    get: {
      operationId: 'getSubscription',
      tags: ['Subscriptions'],
      summary: 'A subscription: its settings, last and next check, and its jobs',
      description: 'Read from the read model, or from its own history right after its creation. Free.',
      parameters: [subscriptionIdParameter],
      responses: { '200': subscriptionBody, '404': notFound, ...common },
    },
    patch: {
      operationId: 'changeSubscription',
      tags: ['Subscriptions'],
      summary: 'Pause, resume, or change the interval or format',
      description: 'A resumed subscription checks next at its own point of the interval.',
      parameters: [subscriptionIdParameter],
      requestBody: {
        required: true,
        content: jsonContent(ref('ChangeSubscriptionRequest', ChangeSubscriptionRequest), { paused: true }),
      },
      responses: {
        '200': subscriptionBody,
        '400': errorResponse('A malformed or extra field; `error` names it.', 'checkEveryMinutes must be >= 15'),
        '404': notFound,
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        ...common,
      },
    },
    delete: {
      operationId: 'deleteSubscription',
      tags: ['Subscriptions'],
      summary: 'Delete a subscription',
      description: 'No check runs after it; the jobs it submitted go on. Its plan slot is free again.',
      parameters: [subscriptionIdParameter],
      responses: { '204': { description: 'Deleted.' }, '404': notFound, ...common },
    },
  },
  '/subscriptions/{subscriptionId}/check': {
    post: {
      operationId: 'checkSubscription',
      tags: ['Subscriptions'],
      summary: 'Check now rather than at the next scheduled time',
      description: 'The check is charged like any other. A check under way or already due answers as it is.',
      parameters: [subscriptionIdParameter],
      responses: {
        '202': subscriptionBody,
        '404': notFound,
        '409': errorResponse('The subscription is paused.', 'Subscription 1b2c is paused: resume it to check it'),
        ...common,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends SubscriptionPaths {}
  interface DocumentedSchemas extends SubscriptionSchemas {}
}
type SubscriptionPaths = typeof subscriptionPaths;
type SubscriptionSchemas = typeof subscriptionSchemas;

export const subscriptionsOpenApi: OpenApiPart = {
  tags: [subscriptionTag],
  paths: subscriptionPaths,
  schemas: subscriptionSchemas,
};
