import type { Decider } from '../decider.js';
import type { LookupJobCommand } from './commands.js';
import { decideLookupJob } from './decide.js';
import type { LookupJobEvent } from './events.js';
import { evolveLookupJob } from './evolve.js';
import type { LookupJobKind } from './kind.js';
import type { LookupJobState } from './state.js';

export type LookupJobDecider<Name extends string, Details, Result> = Decider<
  LookupJobCommand<Name, Details, Result>,
  LookupJobEvent<Name, Details, Result>,
  LookupJobState<Details, Result>
>;

/** The decider of one kind of lookup job (info, client download): the same life, under the kind's names. */
export function lookupJobDecider<Name extends string, Details, Result>(
  kind: LookupJobKind<Name, Result>,
): LookupJobDecider<Name, Details, Result> {
  return {
    decide: decideLookupJob<Name, Details, Result>(kind),
    evolve: evolveLookupJob<Name, Details, Result>(kind),
    initialState: () => ({ status: 'none' }),
  };
}
