import Router from '@koa/router';
import type { FeatureModule } from '../../composition/feature-module.js';
import { TOKENS } from '../../composition/tokens.js';
import { operationRoute } from '../../http/operation-route.js';
import type { UrlRule } from '../../http/url-policies.js';
import { playlistOpenApi } from './playlist-openapi.js';

const playlistUrl: UrlRule<string> = (url) =>
  url.includes('list=') ? { ok: true, value: url } : { ok: false, reason: 'url must name a playlist' };

export const playlistsFeature = {
  name: 'playlists',
  requires: ['accounts'],
  openApi: [playlistOpenApi],
  readModelSchema: ['CREATE TABLE IF NOT EXISTS playlist_jobs (job_id text PRIMARY KEY)'],
  work: {
    playlist: (c) => ({
      handle: async () => {
        c.resolve(TOKENS.accountCommands);
        return { kind: 'done' };
      },
      concurrency: 1,
      maxDeliver: 10,
    }),
  },
  api: ({ validation, urls }) => {
    const router = new Router();
    operationRoute(router, validation, 'submitPlaylist', async (ctx, request) => {
      ctx.body = { url: urls.apply(playlistUrl, request.body().url) };
    });
    return { apiRouters: [router] };
  },
} satisfies FeatureModule;
