/** Splits a text/event-stream into events as the HTML standard's parser does (fields id, event, data; comments ignored). */

export interface ServerSentEvent {
  id: string | null;
  event: string;
  data: string;
}

export class EventStreamParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | null = null;

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): ServerSentEvent[] {
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    const lineEnd = /\r\n|\r|\n/g;
    let consumed = 0;
    for (let newline = lineEnd.exec(this.buffer); newline !== null; newline = lineEnd.exec(this.buffer)) {
      // A lone \r at the end may be the first half of \r\n: wait for more text.
      if (newline[0] === '\r' && newline.index === this.buffer.length - 1) break;
      const event = this.line(this.buffer.slice(consumed, newline.index));
      if (event !== null) events.push(event);
      consumed = newline.index + newline[0].length;
    }
    this.buffer = this.buffer.slice(consumed);
    return events;
  }

  private line(line: string): ServerSentEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return null;
  }

  private dispatch(): ServerSentEvent | null {
    const event =
      this.data.length === 0
        ? null
        : { id: this.id, event: this.event === '' ? 'message' : this.event, data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    return event;
  }
}
