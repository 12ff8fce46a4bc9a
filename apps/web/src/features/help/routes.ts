import { featureRoutes } from '../../app/routeTypes.ts';

/** The help centre (spec §2 /help, /help/faq, /help/notice) and one article's page. */
export const helpRoutes = featureRoutes(import.meta.url, [
  {
    path: '/help',
    account: { order: 220 },
    title: 'help',
    view: { load: () => import('./HelpHome.tsx') },
  },
  { path: '/help/faq', title: 'faq', view: { load: () => import('./Faq.tsx') } },
  { path: '/help/notice', title: 'helpNotice', view: { load: () => import('./Notices.tsx') } },
  {
    path: '/help/article/:id',
    title: 'helpArticle',
    view: { load: () => import('./Article.tsx') },
    firstCall: { name: 'getContentsById', params: { id: ':id' } },
  },
]);
