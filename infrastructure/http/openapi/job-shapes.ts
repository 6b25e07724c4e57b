import { type Static, type TObject, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { ref } from './schema-kit.js';

/** One shape of a job: its component name and its schema, whose `status` (a `const` or an `enum`) selects it. */
export interface JobShape<S extends TObject> {
  name: string;
  schema: S;
}

function statusesOf(schema: TObject): string[] {
  const status = schema.properties.status as { const?: string; enum?: string[] } | undefined;
  if (status?.const !== undefined) return [status.const];
  if (status?.enum !== undefined) return status.enum;
  throw new Error('A job shape needs a status given as a const or an enum');
}

/** A schema that is one of `shapes`, selected by `status`; the discriminator maps each status to its shape for code generators. */
export function oneShapeByStatus<T>(description: string, shapes: ReadonlyArray<JobShape<TObject>>): TUnsafe<T> {
  return Type.Unsafe<T>({
    type: 'object',
    description,
    oneOf: shapes.map((shape) => ref(shape.name, shape.schema)),
    discriminator: {
      propertyName: 'status',
      mapping: Object.fromEntries(
        shapes.flatMap((shape) =>
          statusesOf(shape.schema).map((status) => [status, `#/components/schemas/${shape.name}`]),
        ),
      ),
    },
  });
}

/**
 * Every job kind answers in three shapes: waiting, finished well, failed.
 * Returns the job's schema (one of the three) and the component schemas to
 * register under their names (the job's and each shape's).
 */
export function jobShapes<P extends TObject, S extends TObject, F extends TObject>(
  name: string,
  description: string,
  shapes: { pending: JobShape<P>; success: JobShape<S>; failed: JobShape<F> },
): { job: TUnsafe<Static<P> | Static<S> | Static<F>>; schemas: Record<string, TSchema> } {
  const all: Array<JobShape<TObject>> = [shapes.pending, shapes.success, shapes.failed];
  const job = oneShapeByStatus<Static<P> | Static<S> | Static<F>>(description, all);
  return { job, schemas: { [name]: job, ...Object.fromEntries(all.map((shape) => [shape.name, shape.schema])) } };
}

export const closed = { additionalProperties: false } as const;

/** The fields of a failed lookup job; a kind may add its own. */
export const lookupFailedFields = {
  jobId: Type.String(),
  status: Type.Literal('failed'),
  error: Type.String({ description: 'What went wrong, in words.' }),
};

/**
 * The shapes of a lookup job (info, client download): `pending`, `success`
 * with the lookup's `result`, and `failed`, built from lookupFailedFields.
 */
export function lookupJobShapes<R extends TSchema, F extends TObject>(
  name: string,
  description: string,
  result: R,
  failed: F,
) {
  const jobId = Type.String();
  return jobShapes(name, description, {
    pending: { name: `${name}Pending`, schema: Type.Object({ jobId, status: Type.Literal('pending') }, closed) },
    success: {
      name: `${name}Success`,
      schema: Type.Object({ jobId, status: Type.Literal('success'), result }, closed),
    },
    failed: { name: `${name}Failed`, schema: failed },
  });
}

/** The answer to submitting a lookup: its id, to poll with. */
export function lookupSubmitted(jobIdDescription: string) {
  return Type.Object(
    { jobId: Type.String({ format: 'uuid', description: jobIdDescription }), status: Type.Literal('pending') },
    closed,
  );
}
