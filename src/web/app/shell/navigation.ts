import { matchPath } from 'react-router';
import type { Me } from '../../../shared/schemas/me';
import { allows, isArea, type AppArea, type AppRoute } from '../../lib/app-route';
import type { SubNavLink } from './sub-nav';

/** Where an area opens: its own page, or else the first page this person may open. */
export function entryPoint(area: AppArea, me: Me): string {
  const own = area.pages.some((page) => page.path === area.path);
  return own ? area.path : (area.pages.find((page) => allows(page, me))?.path ?? area.path);
}

/** The header's links this person may follow; an area's link is active on every page of the area. */
export function headerLinks(routes: AppRoute[], me: Me, pathname: string): { label: string; to: string; active: boolean }[] {
  return routes.flatMap((route) => {
    if (!route.nav || !allows(route, me)) return [];
    const active = isArea(route) ? matchPath(`${route.path}/*`, pathname) : matchPath({ path: route.path, end: true }, pathname);
    return [{ label: route.nav, to: isArea(route) ? entryPoint(route, me) : route.path, active: active !== null }];
  });
}

/** The frame's width class on `pathname`: the screen's width (to 1,920 px) for a page marked `wide`, a readable measure for the rest. */
export function frameWidth(routes: AppRoute[], pathname: string): string {
  const wide = routes.some((route) => !isArea(route) && route.wide === true && matchPath({ path: route.path, end: true }, pathname) !== null);
  return wide ? 'max-w-[120rem]' : 'max-w-6xl';
}

/** An area's tabs for the pages this person may open; the tab of the area's own page is active there only. */
export function areaTabs(area: AppArea, me: Me): SubNavLink[] {
  return area.pages.flatMap((page) => (page.tab && allows(page, me) ? [{ to: page.path, label: page.tab, end: page.path === area.path }] : []));
}
