/**
 * The fixed statements every API request runs (the API key lookup, the job
 * row), each by name so that the server plans it once per connection.
 * timestamptz columns may arrive as ISO text or as Dates (see isoTimestamp).
 */
export interface PreparedReads {
  query<Row extends object>(name: string, text: string, values: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}
