import assert from 'node:assert/strict';
import { concurrencyFor, machineConcurrency } from '../../../infrastructure/system/machine-concurrency.js';

const GIB = 1024 ** 3;

describe('the default number of jobs a worker runs at once, from the machine', () => {
  it('runs two per core while memory allows', () => {
    assert.equal(concurrencyFor(2, 24 * GIB), 4);
    assert.equal(concurrencyFor(8, 64 * GIB), 16);
  });

  it('runs at most one per 512 MB, and never fewer than two', () => {
    assert.equal(concurrencyFor(16, 2 * GIB), 4);
    assert.equal(concurrencyFor(1, 0.5 * GIB), 2);
    assert.equal(concurrencyFor(1, 8 * GIB), 2);
  });

  it('stays within the setting’s own bounds on a very large machine', () => {
    assert.equal(concurrencyFor(128, 1024 * GIB), 64);
  });

  it('gives this machine a value within those bounds', () => {
    const here = machineConcurrency();
    assert.ok(Number.isInteger(here) && here >= 2 && here <= 64, String(here));
  });
});
