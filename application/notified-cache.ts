/**
 * Values kept in memory while the owner of a change feed says none can be missed
 * (`trust()`): each change forgets what it names, and a read that overlapped a change
 * is not stored, since it may have read the value just before it. The least recently
 * used entry makes room first.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, V>();
  private isTrusted = false;
  /** Moves on at every change and change of trust. */
  private generation = 0;

  constructor(private readonly maxEntries: number) {}

  /** Whether changes are being reported, so what is kept may be served. */
  get trusted(): boolean {
    return this.isTrusted;
  }

  /** Nothing while changes may be missed. */
  get(key: string): V | undefined {
    if (!this.isTrusted) return undefined;
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Taken before reading a value from its source; `remember` stores it only if nothing changed meanwhile. */
  ticket(): number {
    return this.generation;
  }

  remember(key: string, value: V, ticket: number): void {
    if (!this.isTrusted || ticket !== this.generation || this.maxEntries === 0) return;
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** An entry gone stale by itself (an expiry), not by a change, so reads under way may still be stored. */
  drop(key: string): void {
    this.entries.delete(key);
  }

  forget(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  forgetWhere(changed: (value: V) => boolean): void {
    this.generation += 1;
    for (const [key, value] of this.entries) if (changed(value)) this.entries.delete(key);
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Changes are reported from now on; what was kept before may have missed some, so it goes. */
  trust(): void {
    this.forgetAll();
    this.isTrusted = true;
  }

  distrust(): void {
    this.forgetAll();
    this.isTrusted = false;
  }
}
