import { paths } from '../../lib/paths';
import type { AppRoute } from '../app-shell/app-route';
import PipelinePage from './pipeline-page';

// Not lazy: the app's first page comes with the shell's chunk, and shows as soon as the person is known.
export const pipelineRoutes: AppRoute[] = [{ path: paths.app, page: PipelinePage, nav: 'Pipeline' }];
