import { ListChannel } from '../../../application/lookups/list-channel.js';
import type { FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { listChannelRoutes } from './list-channel-routes.js';
import { channelListingOpenApi } from './channel-listing-openapi.js';

/** A channel's videos, listed while the client waits; its reservation is released with the lookups'. */
export const channelListingFeature = {
  name: 'channel listing',
  requires: ['accounts'],
  openApi: [channelListingOpenApi],
  register: ({ container: c, config }) =>
    c.singleton(
      ListChannel,
      () =>
        new ListChannel({
          accounts: c.resolve(TOKENS.accountCommands),
          extractor: c.resolve(TOKENS.extractor.listChannel),
          ids: c.resolve(TOKENS.ids),
          clock: c.resolve(TOKENS.clock),
          bounds: {
            perAccount: config.lookups.channelListingsPerAccount,
            overall: config.lookups.channelListingsMax,
            listingTimeoutMs: config.lookups.channelListingTimeoutSeconds * 1000,
          },
          readProgress: c.resolve(TOKENS.accountReadProgress),
        }),
    ),
  api: ({ container: c, validation, urls }) => ({
    apiRouters: [listChannelRoutes({ listChannel: c.resolve(ListChannel), validation, urls })],
  }),
} satisfies FeatureModule;
