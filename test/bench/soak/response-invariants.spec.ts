import assert from 'node:assert/strict';
import { FAULT_AFTERMATH_MS } from '../../../bench/soak/job-invariants.js';
import { checkServerErrors, routeOf } from '../../../bench/soak/response-invariants.js';
import { fault } from './soak-records.js';

describe('soak response invariants', () => {
  const at = 1_000_000;

  it('hold for 503s, whatever the route, with or without a fault', () => {
    assert.deepEqual(checkServerErrors([{ at, route: 'GET /download/{id}', status: 503 }], []), []);
  });

  it('break for a 500 of a route that does not look the platform up, even under a fault, counted per route', () => {
    const broken = checkServerErrors(
      [
        { at, route: 'GET /download/{id}', status: 500 },
        { at: at + 1, route: 'GET /download/{id}', status: 500 },
        { at, route: 'POST /info', status: 502 },
      ],
      [fault('restart-postgres', at - 500, 2_000)],
    );
    assert.deepEqual(broken, [
      'GET /download/{id} answered 500 ×2 (a 5xx other than 503, with no fault to excuse it)',
      'POST /info answered 502 ×1 (a 5xx other than 503, with no fault to excuse it)',
    ]);
  });

  it('excuse a 500 of a lookup while the platform refuses or the lookup helpers die, and not after the aftermath', () => {
    const refusing = fault('platform-429', at - 1_000, 5_000);
    assert.deepEqual(checkServerErrors([{ at, route: 'POST /download', status: 500 }], [refusing]), []);
    const late = { at: refusing.endedAt + FAULT_AFTERMATH_MS + 1, route: 'POST /download', status: 500 };
    assert.equal(checkServerErrors([late], [refusing]).length, 1);
    assert.equal(
      checkServerErrors([{ at, route: 'POST /download', status: 500 }], [{ ...refusing, failure: 'threw' }]).length,
      1,
      'a fault not injected excuses nothing',
    );
  });

  it('names routes by their template', () => {
    assert.equal(routeOf('GET', '/download/6e8ddae6-73d1-4280-8ba5-f6e9b2480fc1'), 'GET /download/{id}');
    assert.equal(routeOf('GET', '/info/6e8ddae6-73d1-4280-8ba5-f6e9b2480fc1?x=1'), 'GET /info/{id}');
    assert.equal(routeOf('POST', '/list-channel'), 'POST /list-channel');
  });
});
