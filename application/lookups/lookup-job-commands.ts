import type { ClientDownloadInfo, ClientDownloadJobDetails } from '../../domain/lookup-job/client-download-job.js';
import type { LookupJobCommand } from '../../domain/lookup-job/commands.js';
import type { LookupJobEvent } from '../../domain/lookup-job/events.js';
import type { InfoJobDetails, VideoInfo } from '../../domain/lookup-job/info-job.js';
import type { LookupJobState } from '../../domain/lookup-job/state.js';
import type { CommandHandler } from '../command-handler.js';

/** The command handler of one kind's `<category>-<jobId>` streams. */
export type LookupJobCommandHandler<Name extends string, Details, Result> = CommandHandler<
  LookupJobCommand<Name, Details, Result>,
  LookupJobEvent<Name, Details, Result>,
  LookupJobState<Details, Result>
>;

/** The command handler of `info-<jobId>` streams. */
export type InfoJobCommandHandler = LookupJobCommandHandler<'Info', InfoJobDetails, VideoInfo>;

/** The command handler of `clientdownload-<jobId>` streams. */
export type ClientDownloadJobCommandHandler = LookupJobCommandHandler<
  'ClientDownload',
  ClientDownloadJobDetails,
  ClientDownloadInfo
>;
