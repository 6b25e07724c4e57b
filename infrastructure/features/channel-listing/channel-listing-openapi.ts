import { Type } from '@sinclair/typebox';
import { closed } from '../../http/openapi/job-shapes.js';
import { defaulted, definePaths, jsonContent, nullable, ref } from '../../http/openapi/schema-kit.js';
import {
  ApiError,
  errorResponse,
  rateLimitHeaders,
  rateLimitedDescription,
  responses,
} from '../../http/openapi/shared-responses.js';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';

/** The channel-listing add-on: recent videos of a channel, answered at once. */

const ListChannelRequest = Type.Object(
  {
    channelUrl: Type.String({
      description:
        'URL of a channel on the video platform: `/@<handle>`, `/channel/<id>`, `/c/<name>` or `/user/<name>`, each optionally followed by `/videos`.',
      examples: ['https://www.youtube.com/@example', 'https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw/videos'],
    }),
    maxVideos: defaulted(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: 'How many recent videos to list; higher values take proportionally longer.',
      }),
      5,
    ),
  },
  closed,
);

const ChannelListingEntry = Type.Object(
  {
    id: Type.String({ description: 'Video ID.' }),
    title: Type.String(),
    url: Type.String(),
    duration: Type.Optional(
      nullable('number', { description: 'Seconds; null or absent when the extractor does not know it.' }),
    ),
    view_count: Type.Optional(
      nullable('integer', { description: 'Null or absent when the extractor does not know it.' }),
    ),
    uploader: Type.String({
      description: "The entry's uploader, or the channel's when the extractor gives the entry none.",
    }),
  },
  {
    description:
      'One video of the listing; properties beyond those described here may appear. `id`, `title`, `url` and `uploader` are always strings ' +
      "(an entry without an uploader of its own is given the channel's). Other properties are the extractor's, which reports null for what it does not know " +
      'or leaves them out: `duration` for some short videos, `view_count` for live and upcoming streams.',
  },
);

const ChannelListing = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    channel: Type.String(),
    channel_id: Type.String(),
    channel_url: Type.String(),
    entries: Type.Array(ref('ChannelListingEntry', ChannelListingEntry), {
      description: 'One item per video, most recent first.',
    }),
  },
  {
    description:
      'The media extractor’s flat-playlist listing of the channel, passed through; properties beyond those described here may appear.',
  },
);

const channelListingSchemas = { ListChannelRequest, ChannelListing, ChannelListingEntry };

const channelListingPaths = definePaths({
  '/list-channel': {
    post: {
      operationId: 'listChannel',
      tags: ['Channels'],
      summary: 'List recent videos of a channel (add-on)',
      description:
        'Returns the most recent videos of a channel on the video platform, as the media extractor’s flat listing passed through (extra properties may appear). ' +
        'Higher `maxVideos` take proportionally longer. Counts 1 unit of the `channel_list` add-on per 10 items returned, rounded up; no bandwidth. ' +
        'A listing that could cost more than the units left (`maxVideos` / 10, rounded up) is refused with `403` before the channel is read; a failed listing costs nothing.',
      requestBody: {
        required: true,
        content: jsonContent(ref('ListChannelRequest', ListChannelRequest), {
          channelUrl: 'https://www.youtube.com/@example',
          maxVideos: 20,
        }),
      },
      responses: {
        '200': { description: 'The listing.', content: jsonContent(ref('ChannelListing', ChannelListing)) },
        '400': errorResponse(
          'A missing or malformed field, an unsupported channel URL, or a channel the platform refuses for a lasting reason (such as one that does not exist; its DownloadErrorCode is then in `details`). ' +
            'The message names the problem.',
          'maxVideos must be an integer from 1 to 1000',
        ),
        '401': responses.unauthorized,
        '429': {
          description:
            `${rateLimitedDescription} ` +
            'Also when too many channel listings of this account, or of all accounts, are under way: then without `RateLimit-*` unless a rate limit applies, answered at once, nothing reserved or charged.',
          headers: {
            ...rateLimitHeaders(false),
            'Retry-After': {
              required: true,
              description: 'Seconds to wait before trying again.',
              schema: Type.Integer({ minimum: 1 }),
            },
          },
          content: jsonContent(ref('ApiError', ApiError), {
            error: 'Too many channel listings of this account are under way; retry after 5 s',
          }),
        },
        '403': responses.addOnOrCreditLimit,
        '413': responses.payloadTooLarge,
        '415': responses.unsupportedMediaType,
        '500': responses.serverError,
        '503': responses.brieflyUnavailable,
      },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends ChannelListingPaths {}
  interface DocumentedSchemas extends ChannelListingSchemas {}
}
type ChannelListingPaths = typeof channelListingPaths;
type ChannelListingSchemas = typeof channelListingSchemas;

export const channelListingOpenApi: OpenApiPart = {
  tags: [{ name: 'Channels', description: 'Add-on: recent videos of a channel.' }],
  paths: channelListingPaths,
  schemas: channelListingSchemas,
};
