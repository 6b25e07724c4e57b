import type { RecordedEvent } from '../../../application/ports/event-store.js';
import { encodePosition } from './checkpoint.js';

export interface EventRow {
  epoch: number;
  global_position: string;
  transaction_id: string;
  stream_name: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
}

/**
 * Cast to text so 64-bit values survive JavaScript. The casts keep the column
 * names, so an ORDER BY must qualify them (`es_events.global_position`) or it
 * sorts the text.
 */
export const EVENT_COLUMNS =
  'epoch, global_position::text, transaction_id::text, stream_name, stream_revision::text, event_id::text, event_type, data, metadata, created_at';

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.event_type,
    streamName: row.stream_name,
    revision: Number(row.stream_revision),
    position: encodePosition({
      epoch: row.epoch,
      transactionId: row.transaction_id,
      globalPosition: row.global_position,
    }),
    data: row.data,
    metadata: row.metadata,
    createdAt: row.created_at,
  };
}
