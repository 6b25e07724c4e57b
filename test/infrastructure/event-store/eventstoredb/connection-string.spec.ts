import assert from 'node:assert/strict';
import { toEsdbConnectionString } from '../../../../infrastructure/event-store/eventstoredb/connection-string.js';

describe('EventStoreDB connection strings', () => {
  it('keeps esdb URLs as they are', () => {
    assert.equal(toEsdbConnectionString('esdb://localhost:2113?tls=false'), 'esdb://localhost:2113?tls=false');
    assert.equal(toEsdbConnectionString('esdb+discover://a:2113,b:2113'), 'esdb+discover://a:2113,b:2113');
  });

  it('rewrites kurrentdb URLs, which the v6 client refuses, keeping the rest', () => {
    assert.equal(
      toEsdbConnectionString('kurrentdb://admin:changeit@localhost:2113?tls=false'),
      'esdb://admin:changeit@localhost:2113?tls=false',
    );
    assert.equal(
      toEsdbConnectionString('kurrentdb+discover://a:2113,b:2113?tls=true'),
      'esdb+discover://a:2113,b:2113?tls=true',
    );
  });

  it('refuses other schemes', () => {
    for (const url of ['postgres://localhost/db', 'http://localhost:2113', 'esdb:/localhost', 'localhost:2113', '']) {
      assert.throws(() => toEsdbConnectionString(url), /EVENTSTORE_URL/, url);
    }
  });
});
