import type { Decider } from '../decider.js';
import type { DownloadJobCommand } from './commands.js';
import { decideDownloadJob } from './decide.js';
import type { DownloadJobEvent } from './events.js';
import { evolveDownloadJob } from './evolve.js';
import { type DownloadJobState, initialDownloadJobState } from './state.js';

export const downloadJobDecider: Decider<DownloadJobCommand, DownloadJobEvent, DownloadJobState> = {
  decide: decideDownloadJob,
  evolve: evolveDownloadJob,
  initialState: initialDownloadJobState,
};

export const DOWNLOAD_JOB_CATEGORY = 'download';
