/**
 * Tells readers which categories got events, after the appends committed
 * rather than inside them: a NOTIFY in the appending transaction makes every
 * commit queue on the server's single notification lock. Categories of
 * appends that commit while a notification is being sent go out together in
 * the next one, so a burst of appends costs a few notifications, not one each.
 */
export class AppendNotifier {
  private readonly pending = new Set<string>();
  private sending: Promise<void> | null = null;

  /** `send` delivers one comma-separated list of categories; it must not throw. */
  constructor(private readonly send: (categories: string) => Promise<void>) {}

  notify(category: string): void {
    this.pending.add(category);
    this.sending ??= this.flush();
  }

  /** Resolves once everything notified so far has been sent. */
  async drain(): Promise<void> {
    while (this.sending !== null) await this.sending;
  }

  private async flush(): Promise<void> {
    // Appends whose commits land in the same turn of the event loop share the first notification.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.size > 0) {
      const categories = [...this.pending].join(',');
      this.pending.clear();
      await this.send(categories);
    }
    this.sending = null;
  }
}
