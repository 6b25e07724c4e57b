import type { Decider } from '../decider.js';
import type { ClientDownloadJobCommand } from './commands.js';
import { decideClientDownloadJob } from './decide.js';
import type { ClientDownloadJobEvent } from './events.js';
import { evolveClientDownloadJob } from './evolve.js';
import { type ClientDownloadJobState, initialClientDownloadJobState } from './state.js';

export const clientDownloadJobDecider: Decider<ClientDownloadJobCommand, ClientDownloadJobEvent, ClientDownloadJobState> = {
  decide: decideClientDownloadJob,
  evolve: evolveClientDownloadJob,
  initialState: initialClientDownloadJobState,
};

/** Stream categories carry no dash (see stream-name.ts), so these jobs live in `clientdownload-<jobId>`. */
export const CLIENT_DOWNLOAD_JOB_CATEGORY = 'clientdownload';
