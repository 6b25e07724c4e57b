import assert from 'node:assert/strict';
import type { Extractor } from '../../application/ports/extractor.js';

/** Stands in for the command line behind a warm extractor, so any answer must have come from a warm helper. */
export const noCommandLine: Extractor = {
  probe: async () => assert.fail('the command line was asked'),
  download: async () => assert.fail('the command line was asked'),
  listChannel: async () => assert.fail('the command line was asked'),
  resolveMediaLinks: async () => assert.fail('the command line was asked'),
};
