export interface ChannelListingOptions {
  /** The most recent videos to list, 1 to 1000. */
  maxVideos: number;
  signal?: AbortSignal;
}

/**
 * A channel's flat listing as the extractor gives it, passed through to
 * clients: the named properties are always present, others may be.
 */
export interface ChannelListing {
  id: string;
  title: string;
  channel: string;
  channel_id: string;
  channel_url: string;
  entries: ChannelListingEntry[];
  [property: string]: unknown;
}

export interface ChannelListingEntry {
  id: string;
  title: string;
  url: string;
  uploader: string;
  [property: string]: unknown;
}

/** The extractor's capability to list a channel's most recent videos, without visiting each. */
export interface ChannelLister {
  listChannel(url: string, options: ChannelListingOptions): Promise<ChannelListing>;
}
