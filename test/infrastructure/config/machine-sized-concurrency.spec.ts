import assert from 'node:assert/strict';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { machineSizedConcurrency, thisMachine } from '../../../infrastructure/config/machine-sized-concurrency.js';

const GiB = 1024 * 1024 * 1024;

describe('machine-sized worker concurrency', () => {
  it('runs two downloads per core where memory allows', () => {
    assert.equal(machineSizedConcurrency({ cores: 2, memoryBytes: 24 * GiB }), 4);
    assert.equal(machineSizedConcurrency({ cores: 4, memoryBytes: 16 * GiB }), 8);
  });

  it('lets memory cap it on a small machine, never below 2', () => {
    assert.equal(machineSizedConcurrency({ cores: 8, memoryBytes: 4 * GiB }), 8);
    assert.equal(machineSizedConcurrency({ cores: 8, memoryBytes: 2 * GiB }), 2);
    assert.equal(machineSizedConcurrency({ cores: 1, memoryBytes: GiB / 2 }), 2);
  });

  it('stops at 16 on a large machine', () => {
    assert.equal(machineSizedConcurrency({ cores: 64, memoryBytes: 256 * GiB }), 16);
  });

  it('is the default when WORKER_CONCURRENCY is unset, and a set value wins', () => {
    assert.equal(loadConfig({}).jobs.workerConcurrency, machineSizedConcurrency(thisMachine()));
    assert.equal(loadConfig({ WORKER_CONCURRENCY: '3' }).jobs.workerConcurrency, 3);
  });
});
