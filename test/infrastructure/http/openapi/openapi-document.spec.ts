import assert from 'node:assert/strict';
import { OPENAPI_DOCUMENT as openApiDocument } from '../../../../infrastructure/features/features.js';
import { OpenApiSchemas } from '../../../../infrastructure/http/openapi/openapi-ajv.js';

type Json = Record<string, unknown>;

const document = openApiDocument as unknown as Json;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Keywords of JSON Schema 2020-12 and of the OpenAPI 3.1 base vocabulary; anything else in a schema is a typo ajv would ignore. */
const SCHEMA_KEYWORDS = new Set([
  '$id',
  '$schema',
  '$ref',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$defs',
  '$comment',
  '$vocabulary',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'prefixItems',
  'items',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'format',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'discriminator',
  'xml',
  'externalDocs',
  'example',
]);
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

interface Operation {
  where: string;
  pointer: string;
  operation: Json;
}

function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function operationsOf(section: 'paths' | 'webhooks'): Operation[] {
  return Object.entries(document[section] as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({
        where: `${method.toUpperCase()} ${path}`,
        pointer: `/${section}/${escapePointerSegment(path)}/${method}`,
        operation: operation as Json,
      })),
  );
}

const allOperations = (): Operation[] => [...operationsOf('paths'), ...operationsOf('webhooks')];

/** What an operation's 403 says, or '' for none. */
const refusalOf = (operation: Json): string =>
  String(((operation.responses as Record<string, Json>)['403'] as Json | undefined)?.description ?? '');

/** The operations served at a base of their own (the admin API's), and those under the API prefixes. */
const isAdmin = ({ operation }: Operation) => operation.servers !== undefined;
const apiOperations = (): Operation[] => operationsOf('paths').filter((operation) => !isAdmin(operation));

/** Every schema the operations use, by JSON pointer: parameters, request bodies, response bodies and headers. */
function operationSchemas(): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = [];
  for (const { pointer, operation } of allOperations()) {
    for (const [index, parameter] of ((operation.parameters ?? []) as Json[]).entries())
      found.push([`${pointer}/parameters/${index}/schema`, parameter.schema]);
    const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
    for (const [type, media] of Object.entries(body?.content ?? {}))
      found.push([`${pointer}/requestBody/content/${escapePointerSegment(type)}/schema`, media.schema]);
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>))
        found.push([`${pointer}/responses/${status}/content/${escapePointerSegment(type)}/schema`, media.schema]);
      for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>))
        found.push([`${pointer}/responses/${status}/headers/${escapePointerSegment(name)}/schema`, header.schema]);
    }
  }
  return found;
}

function allSchemas(): Array<[string, unknown]> {
  const components = Object.entries((document.components as Json).schemas as Json).map(
    ([name, schema]): [string, unknown] => [`/components/schemas/${name}`, schema],
  );
  return [...components, ...operationSchemas()];
}

/** Visits a schema and all its subschemas. */
function walkSchema(schema: unknown, at: string, visit: (schema: Json, at: string) => void): void {
  if (typeof schema === 'boolean') return;
  assert.ok(typeof schema === 'object' && schema !== null && !Array.isArray(schema), `${at} is not a schema`);
  const node = schema as Json;
  visit(node, at);
  for (const key of SCHEMA_MAPS)
    for (const [name, sub] of Object.entries((node[key] ?? {}) as Json)) walkSchema(sub, `${at}/${key}/${name}`, visit);
  for (const key of SCHEMA_LISTS)
    for (const [index, sub] of ((node[key] ?? []) as unknown[]).entries())
      walkSchema(sub, `${at}/${key}/${index}`, visit);
  for (const key of SCHEMA_VALUES) if (node[key] !== undefined) walkSchema(node[key], `${at}/${key}`, visit);
}

function resolve(pointer: string): unknown {
  let node: unknown = document;
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

function schemaNamed(name: string): Json {
  return ((document.components as Json).schemas as Json)[name] as Json;
}

describe('OpenAPI document', () => {
  describe('as an OpenAPI 3.1 document', () => {
    it('has only OpenAPI 3.1 top-level fields, with info and a version', () => {
      const allowed = [
        'openapi',
        'info',
        'jsonSchemaDialect',
        'servers',
        'paths',
        'webhooks',
        'components',
        'security',
        'tags',
        'externalDocs',
      ];
      for (const key of Object.keys(document)) assert.ok(allowed.includes(key), key);
      assert.equal(openApiDocument.openapi, '3.1.0');
      assert.equal(typeof openApiDocument.info.title, 'string');
      assert.equal(openApiDocument.info.version, '2.0.0');
    });

    it('survives a JSON round trip unchanged, as it is served', () => {
      assert.deepEqual(JSON.parse(JSON.stringify(openApiDocument)), openApiDocument);
    });

    it('is served under /api/v2 and the two legacy base paths', () => {
      assert.deepEqual(
        openApiDocument.servers.map((server) => server.url),
        ['/api/v2', '/api/v1', '/v2'],
      );
    });

    it('requires the HTTP bearer scheme everywhere except on the document itself', () => {
      assert.deepEqual(openApiDocument.security, [{ bearerAuth: [] }]);
      const scheme = openApiDocument.components.securitySchemes.bearerAuth;
      assert.equal(scheme.type, 'http');
      assert.equal(scheme.scheme, 'bearer');
      const open = apiOperations()
        .filter(({ operation }) => operation.security !== undefined)
        .map(({ where }) => where);
      assert.deepEqual(open, ['GET /openapi.json']);
    });

    it('serves the admin operations under /admin/v1, each behind the operator token alone, none behind an API key', () => {
      const admin = operationsOf('paths').filter(isAdmin);
      assert.ok(admin.length >= 19, `${admin.length} admin operations`);
      for (const { where, operation } of admin) {
        assert.deepEqual(
          operation.servers,
          [{ url: '/admin/v1', description: 'The admin API: operator tokens only.' }],
          where,
        );
        assert.deepEqual(operation.security, [{ operatorToken: [] }], where);
        assert.deepEqual(operation.tags, ['Admin'], where);
        assert.match(String(operation.operationId), /^admin[A-Z]/, where);
        assert.doesNotMatch(refusalOf(operation), /suspended by an operator/, `${where}: no account refusal`);
      }
      assert.equal(openApiDocument.components.securitySchemes.operatorToken.scheme, 'bearer');
    });

    it('documents the 403 of a suspended or closed account on every operation behind an API key', () => {
      for (const { where, operation } of apiOperations()) {
        if (operation.security !== undefined) continue;
        assert.match(refusalOf(operation), /suspended by an operator/, where);
      }
    });

    it('names only defined security schemes', () => {
      const defined = Object.keys(openApiDocument.components.securitySchemes);
      const requirements = [
        ...openApiDocument.security,
        ...allOperations().flatMap(({ operation }) => (operation.security ?? []) as Json[]),
      ];
      for (const requirement of requirements)
        for (const name of Object.keys(requirement)) assert.ok(defined.includes(name), name);
    });

    it('gives every operation a unique operationId, declared tags and described responses with valid status keys', () => {
      const ids = allOperations().map(({ operation }) => operation.operationId);
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
      const tags: string[] = openApiDocument.tags.map((tag) => tag.name);
      for (const { where, operation } of allOperations()) {
        assert.equal(typeof operation.operationId, 'string', where);
        assert.equal(typeof operation.summary, 'string', where);
        for (const tag of (operation.tags ?? []) as string[]) assert.ok(tags.includes(tag), `${where}: tag ${tag}`);
        const responses = Object.entries(operation.responses as Record<string, Json>);
        assert.ok(responses.length > 0, where);
        for (const [status, response] of responses) {
          assert.match(status, /^([1-5]([0-9]{2}|XX)|default)$/, `${where} ${status}`);
          assert.equal(typeof response.description, 'string', `${where} ${status} needs a description`);
        }
      }
    });

    it('declares every path parameter of a template, and nothing else, as required', () => {
      for (const { where, operation } of operationsOf('paths')) {
        const inTemplate = [...where.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
        const declared = ((operation.parameters ?? []) as Json[]).filter((parameter) => parameter.in === 'path');
        assert.deepEqual(declared.map((parameter) => parameter.name).sort(), inTemplate, where);
        for (const parameter of declared) assert.equal(parameter.required, true, `${where} ${String(parameter.name)}`);
      }
    });

    it('resolves every $ref', () => {
      const refs: string[] = [];
      const collect = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(collect);
        else if (typeof node === 'object' && node !== null) {
          for (const [key, value] of Object.entries(node)) {
            if (key === '$ref' && typeof value === 'string') refs.push(value);
            else collect(value);
          }
        }
      };
      collect(document);
      assert.ok(refs.length > 20);
      for (const ref of refs) {
        assert.match(ref, /^#\//, ref);
        assert.notEqual(resolve(ref), undefined, ref);
      }
    });

    it('uses only JSON Schema 2020-12 and OpenAPI keywords in its schemas', () => {
      for (const [pointer, schema] of allSchemas()) {
        walkSchema(schema, pointer, (node, at) => {
          for (const key of Object.keys(node)) assert.ok(SCHEMA_KEYWORDS.has(key), `${at}: unknown keyword ${key}`);
        });
      }
    });

    it('lists only declared properties as required in closed objects', () => {
      for (const [pointer, schema] of allSchemas()) {
        walkSchema(schema, pointer, (node, at) => {
          if (node.additionalProperties !== false || !Array.isArray(node.required)) return;
          for (const name of node.required as string[])
            assert.ok(name in ((node.properties ?? {}) as Json), `${at}: required ${name} is not a property`);
        });
      }
    });

    it('has discriminators whose mapping matches the status values of their oneOf branches', () => {
      for (const [name, schema] of Object.entries(openApiDocument.components.schemas) as Array<[string, Json]>) {
        const discriminator = schema.discriminator as
          | { propertyName: string; mapping: Record<string, string> }
          | undefined;
        if (discriminator === undefined) continue;
        const branches = (schema.oneOf as Array<{ $ref: string }>).map((branch) => branch.$ref);
        const covered = new Set<string>();
        for (const branch of branches) {
          const target = resolve(branch) as Json;
          assert.ok(
            (target.required as string[]).includes(discriminator.propertyName),
            `${name}: ${branch} must require ${discriminator.propertyName}`,
          );
          const tag: { const?: string; enum?: string[] } = (
            target.properties as Record<string, { const?: string; enum?: string[] }>
          )[discriminator.propertyName];
          const values: string[] = tag.enum ?? [tag.const as string];
          for (const value of values) {
            assert.equal(discriminator.mapping[value], branch, `${name}: ${value}`);
            covered.add(value);
          }
        }
        assert.deepEqual([...covered].sort(), Object.keys(discriminator.mapping).sort(), name);
      }
    });

    it('compiles every schema with ajv', () => {
      const schemas = new OpenApiSchemas(openApiDocument, { useDefaults: false, allErrors: true });
      const pointers = allSchemas().map(([pointer]) => pointer);
      assert.ok(pointers.length > 60);
      for (const pointer of pointers) assert.equal(typeof schemas.validator(pointer), 'function', pointer);
    });
  });

  describe('against the contract', () => {
    const operation = (path: string, method: string) => (document.paths as Record<string, Json>)[path][method] as Json;
    const statuses = (path: string, method: string) => Object.keys(operation(path, method).responses as Json).sort();

    it('has exactly the contract operations under the API prefix, and the document itself', () => {
      const found = apiOperations()
        .map(({ where, operation: op }) => `${where} ${String(op.operationId)}`)
        .sort();
      assert.deepEqual(found, [
        'DELETE /download-batch/{batchId} cancelBatch',
        'DELETE /download/{jobId} cancelDownload',
        'DELETE /me/keys/{keyId} revokeApiKey',
        'DELETE /subscriptions/{subscriptionId} deleteSubscription',
        'GET /client-download/{jobId} getClientDownload',
        'GET /download-batch/{batchId} getBatch',
        'GET /download-batch/{batchId}/events watchBatch',
        'GET /download/{jobId} getDownload',
        'GET /download/{jobId}/events watchDownload',
        'GET /download/{jobId}/webhook-attempts listWebhookAttempts',
        'GET /downloads listDownloads',
        'GET /info/{jobId} getInfo',
        'GET /me getMe',
        'GET /me/export exportAccount',
        'GET /me/keys listApiKeys',
        'GET /me/statement getStatement',
        'GET /openapi.json getOpenApiDocument',
        'GET /subscriptions listSubscriptions',
        'GET /subscriptions/{subscriptionId} getSubscription',
        'PATCH /subscriptions/{subscriptionId} changeSubscription',
        'POST /client-download submitClientDownload',
        'POST /download submitDownload',
        'POST /download-batch submitBatch',
        'POST /download-batch/{batchId}/retry retryBatch',
        'POST /info submitInfo',
        'POST /list-channel listChannel',
        'POST /me/keys issueApiKey',
        'POST /subscriptions createSubscription',
        'POST /subscriptions/{subscriptionId}/check checkSubscription',
      ]);
    });

    it('leaves signed file links and operational endpoints out', () => {
      for (const path of Object.keys(openApiDocument.paths))
        assert.doesNotMatch(path, /^\/(files|healthz|readyz|metrics)/);
    });

    it('documents the status codes of each endpoint', () => {
      assert.deepEqual(statuses('/download', 'post'), [
        '200',
        '400',
        '401',
        '403',
        '413',
        '415',
        '422',
        '429',
        '500',
        '503',
      ]);
      assert.deepEqual(statuses('/download/{jobId}', 'get'), ['200', '401', '403', '404', '429', '500', '503']);
      assert.deepEqual(statuses('/download/{jobId}', 'delete'), [
        '200',
        '401',
        '403',
        '404',
        '409',
        '429',
        '500',
        '503',
      ]);
      assert.deepEqual(statuses('/info', 'post'), ['200', '400', '401', '403', '413', '415', '429', '500', '503']);
      assert.deepEqual(statuses('/info/{jobId}', 'get'), ['200', '401', '403', '404', '429', '500', '503']);
      assert.deepEqual(statuses('/list-channel', 'post'), [
        '200',
        '400',
        '401',
        '403',
        '413',
        '415',
        '429',
        '500',
        '503',
      ]);
      assert.deepEqual(statuses('/client-download', 'post'), [
        '200',
        '400',
        '401',
        '403',
        '413',
        '415',
        '429',
        '500',
        '503',
      ]);
      assert.deepEqual(statuses('/client-download/{jobId}', 'get'), ['200', '401', '403', '404', '429', '500', '503']);
      assert.deepEqual(statuses('/me', 'get'), ['200', '401', '403', '500', '503']);
    });

    it('documents the pending-download headers and the rate-limit headers on the submit 429', () => {
      const headers = openApiDocument.paths['/download'].post.responses['429'].headers;
      assert.deepEqual(Object.keys(headers), [
        'X-Pending-Downloads',
        'X-Pending-Downloads-Limit',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]);
      for (const header of Object.values(headers)) assert.equal(header.schema.type, 'integer');
    });

    it('requires Retry-After and the RateLimit headers on every other 429', () => {
      const headers = openApiDocument.paths['/download/{jobId}'].get.responses['429'].headers;
      assert.deepEqual(Object.keys(headers), [
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]);
      for (const header of Object.values(headers)) assert.equal(header.required, true);
    });

    it('describes the submit request field by field', () => {
      const request = openApiDocument.components.schemas.SubmitDownloadRequest;
      assert.deepEqual(request.required, ['url']);
      assert.equal(request.additionalProperties, false);
      assert.deepEqual(Object.keys(request.properties).sort(), [
        'endTime',
        'format',
        'language',
        'startTime',
        'url',
        'webhookUrl',
      ]);
      assert.equal(request.properties.format.default, 'audio');
      assert.deepEqual([request.properties.startTime.type, request.properties.startTime.minimum], ['integer', 0]);
      assert.deepEqual([request.properties.endTime.type, request.properties.endTime.minimum], ['integer', 1]);
      assert.equal(request.properties.language.pattern, '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$');
      assert.deepEqual([request.properties.webhookUrl.format, request.properties.webhookUrl.maxLength], ['uri', 2048]);
    });

    it('lists the contract enumerations', () => {
      const schemas = openApiDocument.components.schemas;
      assert.deepEqual(schemas.MediaFormat.enum, ['1080', '720', '480', '360', 'audio', 'audio-aac', 'audio-mp3']);
      assert.equal(schemas.DownloadErrorCode.enum.length, 15);
      assert.deepEqual(schemas.DownloadJobStatus.enum, ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED', 'FAILED']);
      assert.deepEqual(schemas.AccountPlan.properties.id.enum, ['free', 'starter', 'growth', 'scale', 'custom']);
      assert.deepEqual(schemas.FeatureId.enum, [
        'download_count',
        'bandwidth_mb',
        'info',
        'client_download',
        'channel_list',
      ]);
    });

    it('requires exactly the fields the contract lists for each download shape', () => {
      const shape = (name: string) => schemaNamed(name) as { required: string[]; properties: Json };
      const optional = (name: string) =>
        Object.keys(shape(name).properties)
          .filter((field) => !shape(name).required.includes(field))
          .sort();
      assert.deepEqual(shape('DownloadJobPending').required.sort(), [
        'duration',
        'format',
        'jobId',
        'status',
        'title',
        'url',
      ]);
      // progress is this service's extension to the pending shape: optional, so contract clients never miss it.
      assert.deepEqual(optional('DownloadJobPending'), [
        'completedAt',
        'createdAt',
        'language',
        'progress',
        'startedAt',
      ]);
      assert.deepEqual(shape('DownloadJobCompleted').required.sort(), [
        'actualFormat',
        'downloadUrl',
        'duration',
        'fileSize',
        'format',
        'jobId',
        'status',
        'title',
        'url',
      ]);
      assert.deepEqual(optional('DownloadJobCompleted'), ['completedAt', 'createdAt', 'language', 'startedAt']);
      assert.deepEqual(shape('DownloadJobFailed').required.sort(), [
        'duration',
        'format',
        'jobId',
        'status',
        'title',
        'url',
      ]);
      assert.deepEqual(optional('DownloadJobFailed'), [
        'completedAt',
        'createdAt',
        'errorCode',
        'language',
        'startedAt',
      ]);
    });

    it('answers a used-up limit with exactly "Credit limit reached"', () => {
      // The limit's exact answer first; a suspended or closed account's refusal is the other.
      assert.deepEqual(openApiDocument.paths['/download'].post.responses['403'].content['application/json'].schema, {
        anyOf: [
          { $ref: '#/components/schemas/CreditLimitError' },
          { $ref: '#/components/schemas/AccountRefusedError' },
        ],
      });
      assert.deepEqual(resolve('#/components/schemas/CreditLimitError/allOf/1/properties/error'), {
        const: 'Credit limit reached',
      });
    });

    it('describes the download.finished webhook with its signed headers and the completed or failed body', () => {
      const webhook = openApiDocument.webhooks['download.finished'].post;
      assert.deepEqual(
        webhook.parameters.map((parameter) => parameter.name),
        ['X-Service-Event', 'X-Service-Job-Id', 'X-Service-Attempt', 'X-Service-Signature'],
      );
      assert.deepEqual(Object.keys(openApiDocument.components.schemas.DownloadFinishedEvent.discriminator.mapping), [
        'COMPLETED',
        'FAILED',
      ]);
    });
  });
});
