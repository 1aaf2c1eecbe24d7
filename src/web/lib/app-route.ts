import type { ComponentType } from 'react';
import type { Me } from '../../shared/schemas/me';

/** Who may open a page or an area. Anyone else gets the not-found page, the same answer as for an address that does not exist. */
export type Guard = (me: Me) => boolean;

/** A page of the signed-in app. */
export interface AppPage {
  /** Its address, from lib/paths.ts. */
  path: string;
  /** React.lazy, so the page is its own chunk and nobody downloads what they cannot open. */
  page: ComponentType;
  guard?: Guard;
  /** The label of its link in the header; the link is active on this address only. */
  nav?: string;
  /** Its tab in its area's navigation. */
  tab?: string;
  /** Uses the screen's whole width (up to 1,920 px), for a table or a board of many columns; other pages keep a readable measure. */
  wide?: boolean;
}

/** Several pages under one address, with tabs that stay in place while a page loads (the team's, the admin console). */
export interface AppArea {
  /** The area's address; its pages are at or below it. Without a page of its own, it opens the first one. */
  path: string;
  /** Names the tabs for assistive technology. */
  label: string;
  guard?: Guard;
  /** Shown to someone the guard turns away; the not-found page when not given. */
  refused?: ComponentType;
  /** The label of its link in the header; the link opens the area and is active on all of it. */
  nav?: string;
  pages: AppPage[];
}

/** What a feature adds to the signed-in app (its `routes.tsx`); src/web/app/app-routes.ts lists them all. */
export type AppRoute = AppPage | AppArea;

export const isArea = (route: AppRoute): route is AppArea => 'pages' in route;

/** Whether `me` may open the page or area. */
export const allows = (route: AppRoute | AppPage, me: Me) => route.guard?.(me) ?? true;
