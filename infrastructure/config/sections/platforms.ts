import { DEFAULT_CLIENT_DOWNLOAD_HOSTS } from '../../../domain/client-download-url.js';
import { type ConfigSection, list } from '../variable.js';

/** The hosts whose links the API accepts, per platform. */
export interface PlatformSettings {
  videoHosts: string[];
  shortHosts: string[];
  videoUrlSchemes: string[];
  photoSharingHosts: string[];
  shortVideoHosts: string[];
  shortVideoShortHosts: string[];
  socialNetworkHosts: string[];
  socialNetworkShortHosts: string[];
}

const { photoSharing, shortVideo, socialNetwork } = DEFAULT_CLIENT_DOWNLOAD_HOSTS;
const VIDEO_HOSTS = list(
  'VIDEO_HOSTS',
  ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'music.youtube.com'],
  'hosts of accepted video and channel URLs',
);
const SHORT_HOSTS = list('SHORT_HOSTS', ['youtu.be'], 'share-link hosts of accepted video URLs');
const VIDEO_URL_SCHEMES = list('VIDEO_URL_SCHEMES', ['https'], 'schemes of accepted URLs');
const PHOTO_SHARING_HOSTS = list(
  'PHOTO_SHARING_HOSTS',
  photoSharing.hosts,
  "hosts of the photo/video sharing platform's links (client downloads)",
);
const SHORT_VIDEO_HOSTS = list(
  'SHORT_VIDEO_HOSTS',
  shortVideo.hosts,
  "the short-video platform's hosts (client downloads)",
);
const SHORT_VIDEO_SHORT_HOSTS = list(
  'SHORT_VIDEO_SHORT_HOSTS',
  shortVideo.shortHosts,
  "the short-video platform's share-link hosts (client downloads)",
);
const SOCIAL_NETWORK_HOSTS = list(
  'SOCIAL_NETWORK_HOSTS',
  socialNetwork.hosts,
  "the social network's hosts (client downloads)",
);
const SOCIAL_NETWORK_SHORT_HOSTS = list(
  'SOCIAL_NETWORK_SHORT_HOSTS',
  socialNetwork.shortHosts,
  "the social network's share-link hosts (client downloads)",
);

export const platformsSection: ConfigSection<PlatformSettings> = {
  title: 'Platforms',
  variables: [
    VIDEO_HOSTS,
    SHORT_HOSTS,
    VIDEO_URL_SCHEMES,
    PHOTO_SHARING_HOSTS,
    SHORT_VIDEO_HOSTS,
    SHORT_VIDEO_SHORT_HOSTS,
    SOCIAL_NETWORK_HOSTS,
    SOCIAL_NETWORK_SHORT_HOSTS,
  ],
  load: (env) => ({
    videoHosts: VIDEO_HOSTS.read(env),
    shortHosts: SHORT_HOSTS.read(env),
    videoUrlSchemes: VIDEO_URL_SCHEMES.read(env),
    photoSharingHosts: PHOTO_SHARING_HOSTS.read(env),
    shortVideoHosts: SHORT_VIDEO_HOSTS.read(env),
    shortVideoShortHosts: SHORT_VIDEO_SHORT_HOSTS.read(env),
    socialNetworkHosts: SOCIAL_NETWORK_HOSTS.read(env),
    socialNetworkShortHosts: SOCIAL_NETWORK_SHORT_HOSTS.read(env),
  }),
};
