import type { Decider } from '../decider.js';
import type { InfoJobCommand } from './commands.js';
import { decideInfoJob } from './decide.js';
import type { InfoJobEvent } from './events.js';
import { evolveInfoJob } from './evolve.js';
import { type InfoJobState, initialInfoJobState } from './state.js';

export const infoJobDecider: Decider<InfoJobCommand, InfoJobEvent, InfoJobState> = {
  decide: decideInfoJob,
  evolve: evolveInfoJob,
  initialState: initialInfoJobState,
};

export const INFO_JOB_CATEGORY = 'info';
