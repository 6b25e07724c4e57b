import type { ClientDownloadJobCommand } from '../../domain/client-download-job/commands.js';
import type { ClientDownloadJobEvent } from '../../domain/client-download-job/events.js';
import type { ClientDownloadJobState } from '../../domain/client-download-job/state.js';
import type { InfoJobCommand } from '../../domain/info-job/commands.js';
import type { InfoJobEvent } from '../../domain/info-job/events.js';
import type { InfoJobState } from '../../domain/info-job/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of `info-<jobId>` streams. */
export type InfoJobCommandHandler = CommandHandler<InfoJobCommand, InfoJobEvent, InfoJobState>;

/** The command handler of `clientdownload-<jobId>` streams. */
export type ClientDownloadJobCommandHandler = CommandHandler<ClientDownloadJobCommand, ClientDownloadJobEvent, ClientDownloadJobState>;
