import { InvalidTransitionError } from './errors.js';

/**
 * A decision for each type of `Command`, given its data and what the decider knows of the aggregate (`Context`). A
 * mapped type, so that a command type added without its decision does not compile.
 */
export type DecisionsByType<Command extends { type: string; data: object }, Context, Event> = {
  readonly [Type in Command['type']]: (data: Extract<Command, { type: Type }>['data'], context: Context) => Event[];
};

/** Decides `command` by the decision for its type; a type with none (it came from outside the compiler's sight) is refused. */
export function decideByType<Command extends { type: string; data: object }, Context, Event>(
  decisions: DecisionsByType<Command, Context, Event>,
  command: Command,
  context: Context,
): Event[] {
  const byName = decisions as unknown as Readonly<Record<string, (data: object, context: Context) => Event[]>>;
  if (!Object.hasOwn(byName, command.type)) throw new InvalidTransitionError(`Unknown command ${command.type}`);
  return byName[command.type](command.data, context);
}
