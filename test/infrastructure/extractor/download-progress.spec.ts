import assert from 'node:assert/strict';
import { DownloadProgress } from '../../../infrastructure/extractor/download-progress.js';

describe('download progress lines', () => {
  it('adds up the streams of a merged download', () => {
    const progress = new DownloadProgress();
    const lines = [
      '[progress] {"status": "downloading", "downloaded_bytes": 1024, "total_bytes_estimate": 4000.0}',
      '[progress] {"status": "finished", "downloaded_bytes": 4096, "total_bytes": 4096}',
      '[progress] {"status": "downloading", "downloaded_bytes": 100, "total_bytes": 1000}',
      '[progress] {"status": "finished", "downloaded_bytes": 1000, "total_bytes": 1000}',
    ];
    assert.deepEqual(
      lines.map((line) => {
        const update = progress.read(line);
        return { downloadedBytes: update?.downloadedBytes, totalBytes: update?.totalBytes };
      }),
      [
        { downloadedBytes: 1024, totalBytes: 4000 },
        { downloadedBytes: 4096, totalBytes: 4096 },
        { downloadedBytes: 4196, totalBytes: 5096 },
        { downloadedBytes: 5096, totalBytes: 5096 },
      ],
    );
  });

  it('reports an unknown total as null and skips other lines', () => {
    const progress = new DownloadProgress();
    assert.deepEqual(progress.read('[progress] {"status": "downloading", "downloaded_bytes": 10}'), {
      stage: 'downloading',
      downloadedBytes: 10,
      totalBytes: null,
      speedBytesPerSecond: null,
      etaSeconds: null,
    });
    assert.equal(progress.read('[file] jobs/42/media.m4a'), null);
    assert.equal(progress.read('[progress] not json'), null);
  });

  it('carries the speed and the time left, and takes a finished stream as the start of post-processing until the next one', () => {
    const progress = new DownloadProgress();
    assert.deepEqual(
      progress.read(
        '[progress] {"status": "downloading", "downloaded_bytes": 500, "total_bytes": 1000, "speed": 250.5, "eta": 2}',
      ),
      {
        stage: 'downloading',
        downloadedBytes: 500,
        totalBytes: 1000,
        speedBytesPerSecond: 250.5,
        etaSeconds: 2,
      },
    );
    assert.equal(
      progress.read(
        '[progress] {"status": "finished", "downloaded_bytes": 1000, "total_bytes": 1000, "speed": null, "eta": null}',
      )?.stage,
      'converting',
    );
    assert.equal(
      progress.read('[progress] {"status": "downloading", "downloaded_bytes": 10, "total_bytes": 100}')?.stage,
      'downloading',
    );
  });
});
