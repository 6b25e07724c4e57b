import assert from 'node:assert/strict';
import { EventStreamParser, type ServerSentEvent } from '../../console/src/event-stream-parser.js';

/** Feeds the text in pieces of `size` characters, as a network may cut it anywhere. */
function parseInPieces(text: string, size: number): ServerSentEvent[] {
  const parser = new EventStreamParser();
  const events: ServerSentEvent[] = [];
  for (let start = 0; start < text.length; start += size) events.push(...parser.push(text.slice(start, start + size)));
  return events;
}

describe("the console's text/event-stream parser", () => {
  const stream =
    ': ping\n\nid: 1\nevent: job\ndata: {"status":"IN_QUEUE"}\n\r\nid: 2\r\nevent: job\r\ndata: {"status":\r\ndata: "COMPLETED"}\r\n\r\n';

  it('reads id, event and data, skips comments, and joins data lines with a newline, wherever the text is cut', () => {
    for (const size of [1, 2, 3, 7, stream.length]) {
      assert.deepEqual(
        parseInPieces(stream, size),
        [
          { id: '1', event: 'job', data: '{"status":"IN_QUEUE"}' },
          { id: '2', event: 'job', data: '{"status":\n"COMPLETED"}' },
        ],
        `cut every ${size} characters`,
      );
    }
  });

  it('keeps the last id for events without one, names unnamed events "message", and holds an unfinished event back', () => {
    const parser = new EventStreamParser();
    assert.deepEqual(parser.push('id: 7\ndata: a\n\ndata:b\n\ndata: c'), [
      { id: '7', event: 'message', data: 'a' },
      { id: '7', event: 'message', data: 'b' },
    ]);
    assert.deepEqual(parser.push('\n\n'), [{ id: '7', event: 'message', data: 'c' }]);
  });
});
