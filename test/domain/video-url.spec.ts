import assert from 'node:assert/strict';
import { parseVideoUrl } from '../../domain/video-url.js';

describe('video platform URLs', () => {
  const rules = { videoHosts: ['www.youtube.com', 'youtube.com'], shortHosts: ['youtu.be'], schemes: ['https'] };

  it('accepts the watch, short and live forms and keeps the URL as given', () => {
    assert.deepEqual(parseVideoUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10', rules), { ok: true, videoId: 'dQw4w9WgXcQ', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10' });
    assert.equal(parseVideoUrl('https://youtu.be/dQw4w9WgXcQ', rules).ok, true);
    assert.equal(parseVideoUrl('https://youtube.com/live/dQw4w9WgXcQ', rules).ok, true);
  });

  it('refuses other hosts, schemes, paths and ids, naming the field', () => {
    for (const url of ['http://www.youtube.com/watch?v=abc', 'https://evil.example/watch?v=abc', 'https://www.youtube.com/watch', 'https://www.youtube.com/shorts/abc', 'https://youtu.be/a/b', 'https://www.youtube.com/watch?v=a%20b', 'nope']) {
      const result = parseVideoUrl(url, rules);
      assert.equal(result.ok, false, url);
      if (!result.ok) assert.match(result.reason, /^url must be a video URL/);
    }
  });

  it('follows configured hosts and schemes, e.g. a local fixture platform', () => {
    assert.equal(parseVideoUrl('http://127.0.0.1:8123/watch?v=clip-1', { videoHosts: ['127.0.0.1:8123'], shortHosts: [], schemes: ['http'] }).ok, true);
  });
});
