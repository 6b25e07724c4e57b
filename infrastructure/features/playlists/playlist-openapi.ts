import { Type } from '@sinclair/typebox';
import type { OpenApiPart } from '../../http/openapi/openapi-part.js';
import { definePaths, jsonContent, ref } from '../../http/openapi/schema-kit.js';

const SubmitPlaylistRequest = Type.Object({ url: Type.String() }, { additionalProperties: false });
const playlistSchemas = { SubmitPlaylistRequest };
const playlistPaths = definePaths({
  '/playlist': {
    post: {
      operationId: 'submitPlaylist',
      tags: ['Playlists'],
      summary: 'Trial',
      description: 'A trial of adding a job kind.',
      requestBody: { required: true, content: jsonContent(ref('SubmitPlaylistRequest', SubmitPlaylistRequest)) },
      responses: { '202': { description: 'Queued.' } },
    },
  },
});

declare module '../../http/openapi/document.js' {
  interface DocumentedPaths extends PlaylistPaths {}
  interface DocumentedSchemas extends PlaylistSchemas {}
}
type PlaylistPaths = typeof playlistPaths;
type PlaylistSchemas = typeof playlistSchemas;

export const playlistOpenApi: OpenApiPart = {
  tags: [{ name: 'Playlists', description: 'Trial.' }],
  paths: playlistPaths,
  schemas: playlistSchemas,
};
