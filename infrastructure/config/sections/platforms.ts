import { DEFAULT_CLIENT_DOWNLOAD_HOSTS } from '../../../domain/client-download-url.js';
import { section } from '../section.js';
import type { SettingValue } from '../setting.js';
import { list } from '../variable.js';

const { photoSharing, shortVideo, socialNetwork } = DEFAULT_CLIENT_DOWNLOAD_HOSTS;

/** The hosts whose links the API accepts, per platform. */
export const platformsSection = section('Platforms', {
  videoHosts: list(
    'VIDEO_HOSTS',
    ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'music.youtube.com'],
    'hosts of accepted video and channel URLs',
  ),
  shortHosts: list('SHORT_HOSTS', ['youtu.be'], 'share-link hosts of accepted video URLs'),
  videoUrlSchemes: list('VIDEO_URL_SCHEMES', ['https'], 'schemes of accepted URLs'),
  photoSharingHosts: list(
    'PHOTO_SHARING_HOSTS',
    photoSharing.hosts,
    "hosts of the photo/video sharing platform's links (client downloads)",
  ),
  shortVideoHosts: list('SHORT_VIDEO_HOSTS', shortVideo.hosts, "the short-video platform's hosts (client downloads)"),
  shortVideoShortHosts: list(
    'SHORT_VIDEO_SHORT_HOSTS',
    shortVideo.shortHosts,
    "the short-video platform's share-link hosts (client downloads)",
  ),
  socialNetworkHosts: list(
    'SOCIAL_NETWORK_HOSTS',
    socialNetwork.hosts,
    "the social network's hosts (client downloads)",
  ),
  socialNetworkShortHosts: list(
    'SOCIAL_NETWORK_SHORT_HOSTS',
    socialNetwork.shortHosts,
    "the social network's share-link hosts (client downloads)",
  ),
});

export type PlatformSettings = SettingValue<typeof platformsSection>;
