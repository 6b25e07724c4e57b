/** A domain event as deciders produce it: the store adds ids, revisions and positions. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

/**
 * A pure aggregate: `decide` turns a command into events from the current
 * state, `evolve` folds one event into the state. No I/O, no clock, no ids:
 * times and identifiers arrive in the command.
 */
export interface Decider<Command, Event extends DomainEvent, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}
