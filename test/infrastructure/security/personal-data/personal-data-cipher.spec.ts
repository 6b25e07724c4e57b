import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  PersonalDataCipher,
  erasedMarker,
  isSealed,
} from '../../../../infrastructure/security/personal-data/personal-data-cipher.js';

describe('infrastructure: a data key seals and opens personal values', () => {
  const cipher = new PersonalDataCipher(randomBytes(32));

  it('opens what it sealed, strings and JSON values alike, and leaves plain and sealed values as they are', () => {
    for (const value of ['https://www.youtube.com/watch?v=x', 'ada@example.com', '', { title: 'T', n: [1, 2] }, 42]) {
      const sealed = cipher.seal(value);
      assert.ok(isSealed(sealed));
      assert.ok(!sealed.includes('youtube') && !sealed.includes('ada'));
      assert.deepEqual(cipher.open(sealed), value);
      assert.equal(cipher.seal(sealed), sealed);
    }
    assert.equal(cipher.open('written before sealing'), 'written before sealing');
  });

  it('seals one value to one text within an account, and to another under another account’s key', () => {
    assert.equal(cipher.seal('https://v/1'), cipher.seal('https://v/1'));
    assert.notEqual(cipher.seal('https://v/1'), cipher.seal('https://v/2'));
    assert.notEqual(new PersonalDataCipher(randomBytes(32)).seal('https://v/1'), cipher.seal('https://v/1'));
  });

  it('refuses a changed text and another key', () => {
    const sealed = cipher.seal('ada@example.com');
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    assert.throws(() => cipher.open(flipped));
    assert.throws(() => new PersonalDataCipher(randomBytes(32)).open(sealed));
  });

  it('marks an erased value by its sealed text alone: equal values keep equal markers, and nothing of the text shows', () => {
    const marker = erasedMarker(cipher.seal('https://v/1'));
    assert.match(marker, /^\[erased [0-9a-f]{12}\]$/);
    assert.equal(erasedMarker(cipher.seal('https://v/1')), marker);
    assert.notEqual(erasedMarker(cipher.seal('https://v/2')), marker);
  });
});
