import assert from 'node:assert/strict';
import { FAULT_AFTERMATH_MS } from '../../../bench/soak/job-invariants.js';
import { checkServerErrors, routeOf } from '../../../bench/soak/response-invariants.js';
import { fault } from './soak-records.js';

describe('soak response invariants', () => {
  const at = 1_000_000;

  it('hold for 503s, whatever the route, with or without a fault', () => {
    assert.deepEqual(
      checkServerErrors(
        [{ at, answeredAt: at + 100, route: 'GET /download/{id}', status: 503, error: 'Service unavailable' }],
        [],
      ),
      [],
    );
  });

  it("break for a 500 of a route that does not look the platform up, even under a fault, counted per route with the first one's time and text", () => {
    const broken = checkServerErrors(
      [
        { at, answeredAt: at + 100, route: 'GET /download/{id}', status: 500, error: 'Internal server error' },
        { at: at + 1, answeredAt: at + 100, route: 'GET /download/{id}', status: 500, error: 'Another text' },
        { at, answeredAt: at + 100, route: 'POST /info', status: 502, error: 'Bad gateway' },
      ],
      [fault('restart-postgres', at - 500, 2_000)],
    );
    assert.deepEqual(broken, [
      `GET /download/{id} answered 500 ×2 (a 5xx other than 503, with no fault to excuse it); first at ${new Date(at).toISOString()}: "Internal server error"`,
      `POST /info answered 502 ×1 (a 5xx other than 503, with no fault to excuse it); first at ${new Date(at).toISOString()}: "Bad gateway"`,
    ]);
  });

  it('excuse a 500 of a lookup while the platform refuses or the lookup helpers die, and not after the aftermath', () => {
    const refusing = fault('platform-429', at - 1_000, 5_000);
    assert.deepEqual(
      checkServerErrors(
        [{ at, answeredAt: at + 100, route: 'POST /download', status: 500, error: 'Internal server error' }],
        [refusing],
      ),
      [],
    );
    const late = {
      at: refusing.endedAt + FAULT_AFTERMATH_MS + 1,
      answeredAt: refusing.endedAt + FAULT_AFTERMATH_MS + 900,
      route: 'POST /download',
      status: 500,
      error: 'Internal server error',
    };
    assert.equal(checkServerErrors([late], [refusing]).length, 1);
    assert.equal(
      checkServerErrors(
        [{ at, answeredAt: at + 100, route: 'POST /download', status: 500, error: 'Internal server error' }],
        [{ ...refusing, failure: 'threw' }],
      ).length,
      1,
      'a fault not injected excuses nothing',
    );
  });

  it('excuse a lookup sent before the fault and answered during it, and not one answered before it began', () => {
    const refusing = fault('platform-429', at, 5_000);
    const answer = { route: 'POST /list-channel', status: 500, error: 'The video platform is limiting requests' };
    assert.deepEqual(checkServerErrors([{ ...answer, at: at - 800, answeredAt: at + 200 }], [refusing]), []);
    assert.equal(checkServerErrors([{ ...answer, at: at - 800, answeredAt: at - 1 }], [refusing]).length, 1);
  });

  it('names routes by their template', () => {
    assert.equal(routeOf('GET', '/download/6e8ddae6-73d1-4280-8ba5-f6e9b2480fc1'), 'GET /download/{id}');
    assert.equal(routeOf('GET', '/info/6e8ddae6-73d1-4280-8ba5-f6e9b2480fc1?x=1'), 'GET /info/{id}');
    assert.equal(routeOf('POST', '/list-channel'), 'POST /list-channel');
  });
});
