import type { SnapshotStore, StreamSnapshot } from '../../application/ports/snapshot-store.js';

/** Beside the in-memory event store. States are copied in and out, as a database would. */
export class InMemorySnapshotStore implements SnapshotStore {
  private readonly snapshots = new Map<string, StreamSnapshot>();
  saves = 0;

  async load(streamName: string): Promise<StreamSnapshot | null> {
    const stored = this.snapshots.get(streamName);
    return stored === undefined ? null : structuredClone(stored);
  }

  async save(snapshot: StreamSnapshot): Promise<void> {
    this.saves += 1;
    const stored = this.snapshots.get(snapshot.streamName);
    if (stored !== undefined && stored.revision >= snapshot.revision && stored.version === snapshot.version) return;
    this.snapshots.set(snapshot.streamName, structuredClone(snapshot));
  }

  /** For tests: what another process or a restore could leave behind. */
  replace(snapshot: StreamSnapshot): void {
    this.snapshots.set(snapshot.streamName, structuredClone(snapshot));
  }
}
