/** One row of the event store as a fixture keeps it: what the store holds, in the store's global order. */
export interface StoredEventRow {
  streamName: string;
  revision: number;
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** The rows of each stream, in revision order. */
export function rowsByStream(rows: readonly StoredEventRow[]): Map<string, StoredEventRow[]> {
  const streams = new Map<string, StoredEventRow[]>();
  for (const row of rows) streams.set(row.streamName, [...(streams.get(row.streamName) ?? []), row]);
  return streams;
}
