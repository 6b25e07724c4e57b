import assert from 'node:assert/strict';
import { nameVideoHeight } from '../../../infrastructure/extractor/name-video-height.js';

describe('naming a delivered picture size', () => {
  it('names 16:9 pictures by their height', () => {
    assert.equal(nameVideoHeight(1920, 1080), '1080');
    assert.equal(nameVideoHeight(1280, 720), '720');
    assert.equal(nameVideoHeight(854, 480), '480');
    assert.equal(nameVideoHeight(640, 360), '360');
  });

  it('names wide films and portrait videos by the frame that holds them', () => {
    assert.equal(nameVideoHeight(1920, 800), '1080');
    assert.equal(nameVideoHeight(1280, 536), '720');
    assert.equal(nameVideoHeight(1080, 1920), '1080');
    assert.equal(nameVideoHeight(608, 1080), '720');
    assert.equal(nameVideoHeight(960, 720), '720');
  });

  it('clamps to the smallest and largest names', () => {
    assert.equal(nameVideoHeight(256, 144), '360');
    assert.equal(nameVideoHeight(3840, 2160), '1080');
  });
});
