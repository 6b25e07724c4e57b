import assert from 'node:assert/strict';
import type { Decider, DomainEvent } from '../../domain/decider.js';
import { foldEvents } from './fold-events.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * given(events).when(command).then(events): the decider is checked only
 * through the events it produces, as a reader of the stream would see them.
 */
export function deciderSpecification<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
) {
  return {
    given(events: readonly Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, foldEvents(decider, events));
          return {
            // biome-ignore lint/suspicious/noThenProperty: the given/when/then wording; this object is never awaited.
            then(expected: readonly Event[]) {
              assert.deepStrictEqual(run(), expected);
            },
            thenNothingHappened() {
              assert.deepStrictEqual(run(), []);
            },
            thenThrows(errorClass: ErrorClass, check?: (error: Error) => void) {
              assert.throws(run, (error: unknown) => {
                assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
                check?.(error);
                return true;
              });
            },
          };
        },
      };
    },
  };
}
