/** Laravel's length-aware paginator as the v3 API renders it (spec 2.7), used by every list endpoint. */
import { z } from "zod";
import { parseOrThrow } from "./errors";

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface Page<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: PageLink[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

export const DEFAULT_PER_PAGE = 10;
export const DEFAULT_MAX_PER_PAGE = 100;

/** A positive integer query parameter; anything that is not a plain integer string is reported as such. */
function integerParam(max?: number) {
  const base = z.number().int().min(1);
  return z
    .preprocess(
      (v) => (typeof v === "string" && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : v),
      max ? base.max(max) : base,
    )
    .optional();
}

export function pageQuerySchema(maxPerPage: number) {
  return z.object({ page: integerParam(), per_page: integerParam(maxPerPage) });
}

export type PageQuerySchema = ReturnType<typeof pageQuerySchema>;

export function parsePageRequest(schema: PageQuerySchema, query: unknown): PageRequest {
  const parsed = parseOrThrow(schema, query ?? {});
  return { page: parsed.page ?? 1, perPage: parsed.per_page ?? DEFAULT_PER_PAGE };
}

/** Page numbers shown between the previous and next markers, with "..." gaps (Laravel's UrlWindow, onEachSide 3). */
function windowPages(current: number, last: number): (number | "...")[] {
  const onEachSide = 3;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (last < onEachSide * 2 + 8) return range(1, last);
  const window = onEachSide + 4;
  if (current <= window) return [...range(1, window + onEachSide), "...", last - 1, last];
  if (current > last - window) return [1, 2, "...", ...range(last - (window + (onEachSide - 1)), last)];
  return [1, 2, "...", ...range(current - onEachSide, current + onEachSide), "...", last - 1, last];
}

/**
 * @param path absolute address of the list, without query
 * @param query the request's query; every parameter but `page` is kept in the links (like `withQueryString()`),
 *   so following `next` keeps per_page and filters
 */
export function paginate<T, R>(
  items: readonly T[],
  request: PageRequest,
  path: string,
  query: Record<string, string | string[] | undefined>,
  render: (item: T) => R,
): Page<R> {
  const { page, perPage } = request;
  const total = items.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const start = (page - 1) * perPage;
  const data = start < total ? items.slice(start, start + perPage).map(render) : [];

  const kept: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === "page" || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value])
      kept.push(`${encodeURIComponent(key)}=${encodeURIComponent(v)}`);
  }
  const prefix = `${path}?${kept.length ? kept.join("&") + "&" : ""}page=`;
  const url = (n: number) => prefix + n;
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < lastPage ? url(page + 1) : null;

  const links: PageLink[] = [{ url: prev, label: "&laquo; Previous", active: false }];
  for (const entry of windowPages(page, lastPage)) {
    links.push(
      entry === "..."
        ? { url: null, label: "...", active: false }
        : { url: url(entry), label: String(entry), active: entry === page },
    );
  }
  links.push({ url: next, label: "Next &raquo;", active: false });

  return {
    data,
    links: { first: url(1), last: url(lastPage), prev, next },
    meta: {
      current_page: page,
      from: data.length ? start + 1 : null,
      last_page: lastPage,
      links,
      path,
      per_page: perPage,
      to: data.length ? start + data.length : null,
      total,
    },
  };
}
