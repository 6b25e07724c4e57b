import assert from 'node:assert/strict';
import { nestsDeeperThan } from '../../../infrastructure/http/json-nesting-depth.js';

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not scalars', () => {
    assert.equal(nestsDeeperThan('x', 0), false);
    assert.equal(nestsDeeperThan([], 0), true);
    assert.equal(nestsDeeperThan({ a: [1, { b: 2 }] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [1, { b: 2 }] }, 2), true);
    assert.equal(nestsDeeperThan({ a: 1, b: [[[]]] }, 3), true);
  });

  it('walks a value nested far beyond what recursion survives', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    assert.equal(nestsDeeperThan(deep, 32), true);
  });
});
