/**
 * The one call the shared SQL needs: a pg client or pool, or an embedded
 * PGlite connection, all answer it with the same rows.
 */
export interface SqlClient {
  // Rows are typed by each caller, as in pg's own signature.
  query<Row extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}
