import type { Static, TSchema } from '@sinclair/typebox';
import type { DocumentedPaths } from './document.js';
import type { Validated } from './schema-kit.js';

/**
 * What the document says of each operation, as types read from it: its id,
 * its parameters and its request and response bodies. Handlers are
 * registered by operation id, so a route for an operation the document lacks
 * does not compile.
 */

type Paths = DocumentedPaths;
type AnyOperation = { [Template in keyof Paths]: Paths[Template][keyof Paths[Template]] }[keyof Paths];

export type OperationId = AnyOperation['operationId'];
type OperationOf<Id extends OperationId> = Extract<AnyOperation, { operationId: Id }>;

type ParameterOf<Id extends OperationId> = OperationOf<Id> extends { parameters: ReadonlyArray<infer P> } ? P : never;
type ParameterNamed<P, In extends string> = P extends { in: In; name: infer Name extends string } ? Name : never;

/** Path parameters as the router decoded them. */
export type PathParameters<Id extends OperationId> = { [P in ParameterOf<Id> as ParameterNamed<P, 'path'>]: string };

/** Query parameters given (integers read as numbers). */
export type QueryParameters<Id extends OperationId> = {
  [P in ParameterOf<Id> as ParameterNamed<P, 'query'>]?: P extends { schema: infer S extends TSchema }
    ? Static<S>
    : never;
};

/** Documented request headers given, under their documented names. */
export type HeaderParameters<Id extends OperationId> = {
  [P in ParameterOf<Id> as ParameterNamed<P, 'header'>]?: string;
};

type JsonSchemaOf<Part> = Part extends { content: { 'application/json': { schema: infer S extends TSchema } } }
  ? S
  : never;

/** The operations that take a JSON body. */
export type OperationWithBody = {
  [Id in OperationId]: OperationOf<Id> extends { requestBody: object } ? Id : never;
}[OperationId];

/** A request body that passed validation, its defaults filled in. */
export type RequestBody<Id extends OperationWithBody> =
  OperationOf<Id> extends { requestBody: infer Body } ? Validated<JsonSchemaOf<Body>> : never;

/** The JSON body the operation answers with `status`. */
export type ResponseBody<Id extends OperationId, Status extends string = '200'> =
  OperationOf<Id> extends { responses: { [S in Status]: infer Response } } ? Static<JsonSchemaOf<Response>> : never;

export type HttpMethod = 'get' | 'post' | 'delete';

/** The method and path (in the router's `:name` form) that `paths`, a document's, give an operation. */
export function documentedRoute(paths: object, operationId: OperationId): { method: HttpMethod; path: string } {
  for (const [template, pathItem] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(pathItem) as Array<[HttpMethod, { operationId: string }]>) {
      if (operation.operationId === operationId) return { method, path: template.replace(/\{([^}]+)\}/g, ':$1') };
    }
  }
  // Only reachable if the document's type and its value disagree.
  throw new Error(`The OpenAPI document has no operation ${operationId}`);
}
