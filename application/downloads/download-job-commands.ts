import type { DownloadJobCommand } from '../../domain/download-job/commands.js';
import type { DownloadJobEvent } from '../../domain/download-job/events.js';
import type { DownloadJobState } from '../../domain/download-job/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of `download-<jobId>` streams. */
export type DownloadJobCommandHandler = CommandHandler<DownloadJobCommand, DownloadJobEvent, DownloadJobState>;
