import type Router from '@koa/router';
import type { DependencyContainer } from 'tsyringe';
import { ListDownloadJobs } from '../application/downloads/list-download-jobs.js';
import type { Clock } from '../application/ports/clock.js';
import type { DownloadLinks } from '../application/ports/download-links.js';
import type { DownloadJobReadModel } from '../application/ports/read-models.js';
import { TOKENS } from './container.js';
import type { RequestValidation } from './http/request-validation.js';
import { boundStatusBody, downloadListRoutes } from './http/routes/download-list-routes.js';

/** The routes that let an account watch its jobs: the list, live status and webhook history. */
export function jobWatchingRouters(container: DependencyContainer, validation: RequestValidation): Router[] {
  const links = container.resolve<DownloadLinks>(TOKENS.downloadLinks);
  const clock = container.resolve<Clock>(TOKENS.clock);
  const statusBody = boundStatusBody(links, clock);
  return [
    downloadListRoutes({
      listDownloadJobs: new ListDownloadJobs(container.resolve<DownloadJobReadModel>(TOKENS.downloadJobReadModel)),
      statusBody,
      validation,
    }),
  ];
}
