import { Type } from '@sinclair/typebox';
import { DownloadJob } from '../../http/openapi/download-schemas.js';
import { definePaths, jsonContent, ref } from '../../http/openapi/schema-kit.js';
import { rateLimited, responses } from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** A schema another feature's part declares: the document is assembled from every part, this one's requirements among them. */
const declaredElsewhere = (name: string) =>
  Type.Unsafe<Record<string, unknown>>({ $ref: `#/components/schemas/${name}` });

const AccountExport = Type.Object(
  {
    accountId: Type.String(),
    exportedAt: Type.String({ format: 'date-time' }),
    profile: declaredElsewhere('AccountResponse'),
    keys: Type.Array(declaredElsewhere('ApiKey'), { description: 'Every key ever issued; never a secret.' }),
    jobs: Type.Array(ref('DownloadJob', DownloadJob), {
      description: 'Every download job, newest first, each as `GET /download/{jobId}` answers it now.',
    }),
    webhookDeliveries: Type.Array(
      Type.Object(
        {
          jobId: Type.String(),
          webhookUrl: Type.String(),
          attempts: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
            description: 'As `GET /download/{jobId}/webhook-attempts` lists them.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    statement: Type.Array(declaredElsewhere('StatementEntry'), { description: 'The whole of `GET /me/statement`.' }),
  },
  { additionalProperties: false },
);

const accountExportSchemas = { AccountExport };

const accountExportPaths = definePaths({
  '/me/export': {
    get: {
      operationId: 'exportAccount',
      tags: ['Account'],
      summary: 'Everything the service holds about the account, as one JSON document',
      description:
        'The profile and balances (`GET /me`), every API key’s metadata (never a secret), every download job, the webhook history of those with a webhook, and the whole statement. Free; counts against the request rate limits.',
      responses: {
        '200': {
          description: 'The export.',
          content: jsonContent(ref('AccountExport', AccountExport)),
          headers: {
            'Content-Disposition': {
              description: 'An attachment named after the account.',
              schema: Type.String(),
            },
          },
        },
        '401': responses.unauthorized,
        '429': rateLimited,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends AccountExportPaths {}
  interface DocumentedSchemas extends AccountExportSchemas {}
}
type AccountExportPaths = typeof accountExportPaths;
type AccountExportSchemas = typeof accountExportSchemas;

export const accountExportOpenApi: OpenApiPart = {
  paths: accountExportPaths,
  schemas: accountExportSchemas,
};
