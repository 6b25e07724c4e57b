import type { Decider, DomainEvent } from '../../domain/decider.js';

/** The state a decider reaches from its initial state through `events`, as the command handler folds a stream. */
export function foldEvents<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly NoInfer<Event>[],
): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}
