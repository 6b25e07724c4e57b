/**
 * Folded states of long streams, kept so that a command folds only the events
 * after the snapshot. A snapshot is a cache: losing one, or every one, costs a
 * longer fold and nothing else, so writers never fail a command over it.
 */
export interface StreamSnapshot {
  streamName: string;
  /** Revision of the last event folded into `state`. */
  revision: number;
  /** Id of that event: a store that no longer holds it at `revision` makes the snapshot void. */
  lastEventId: string;
  /** The decider's state version the state was folded with; snapshots of other versions are ignored. */
  version: number;
  state: unknown;
}

export interface SnapshotStore {
  load(streamName: string): Promise<StreamSnapshot | null>;
  /** Keeps the snapshot unless one of a later revision is already stored. */
  save(snapshot: StreamSnapshot): Promise<void>;
}
