import type { ChannelLister } from '../../application/ports/extractor/channel-lister.js';
import type { MediaDownloader } from '../../application/ports/extractor/media-downloader.js';
import type { MediaLinkResolver } from '../../application/ports/extractor/media-link-resolver.js';
import type { VideoProber } from '../../application/ports/extractor/video-prober.js';
import { type Token, token } from './token.js';

/** A capability's token, whose port has the one method the capability is named by. */
type CapabilityToken<Method extends string> = Token<Record<Method, (...args: never[]) => Promise<unknown>>>;

/** Checks that each token's port has the method its key names, so the key can pick the adapter that serves it. */
function capabilities<T extends { [Method in keyof T & string]: CapabilityToken<Method> }>(tokens: T): T {
  return tokens;
}

/**
 * The extractor's capabilities, each a port under its own token, keyed by the method that serves it: a use case
 * resolves only the capabilities it uses. A new capability is one line here (the composition root registers every
 * line, see register-extractor.ts), besides its port and the yt-dlp adapter's method.
 */
export const EXTRACTOR_CAPABILITIES = capabilities({
  probe: token<VideoProber>('VideoProber'),
  download: token<MediaDownloader>('MediaDownloader'),
  listChannel: token<ChannelLister>('ChannelLister'),
  resolveMediaLinks: token<MediaLinkResolver>('MediaLinkResolver'),
});

type Capabilities = typeof EXTRACTOR_CAPABILITIES;
export type ExtractorMethod = keyof Capabilities;

/** The port of one capability. */
type CapabilityPort<Method extends ExtractorMethod> = Capabilities[Method]['type'];

/** An extractor that serves every capability, as the yt-dlp command line does. */
export type WholeExtractor = {
  [Method in ExtractorMethod]: CapabilityPort<Method> extends Record<Method, infer Serve> ? Serve : never;
};
