/**
 * Pagination over the v3 list endpoints (Laravel length-aware pages). Pages are requested by number with
 * `per_page` 100 and iteration stops at `meta.last_page`; `links` are never followed, so a server that
 * rewrites hosts or drops query parameters cannot send the client elsewhere.
 *
 * The maximum page size is not documented. A server that refuses per_page with a 422 about per_page is asked
 * again with the maximum its message names ("must not be greater than 25"), or else with the next size down
 * (100 → 50 → 25 → 10); a server that accepts it but serves fewer (`meta.per_page`) is asked with what it
 * serves. The size that worked is remembered per base URL for the process, so only the first list pays for
 * learning it — and a server that takes 50 is never read 10 at a time. A 422 that does not mention per_page
 * is asked once more without per_page (the server's default size), then surfaced.
 */
import { type DeviceMgmtError, ValidationError } from "./errors";
import type { Page } from "./types";

export const PREFERRED_PAGE_SIZE = 100;

/** Sizes tried, in order, when a refusal does not name the maximum. */
const STEP_DOWN = [50, 25, 10];

/** Where a server's accepted page size is remembered. */
export interface PageSizeMemory {
  get(): number | undefined;
  remember(size: number): void;
}

const learntPageSizes = new Map<string, number>();

/** The process-wide memory of one server's page size (keyed by its base URL). */
export function pageSizeMemory(baseUrl: string): PageSizeMemory {
  return {
    get: () => learntPageSizes.get(baseUrl),
    remember: (size) => void learntPageSizes.set(baseUrl, size),
  };
}

/** A memory for one iterator only (pure use and tests). */
function localMemory(): PageSizeMemory {
  let size: number | undefined;
  return { get: () => size, remember: (next) => void (size = next) };
}

/** True when a 422 is about the per_page parameter. */
function refusesPerPage(error: DeviceMgmtError): boolean {
  if (error.fieldErrors && "per_page" in error.fieldErrors) return true;
  return /per[ _]page/i.test(error.serverMessage ?? "");
}

/** The next size to try after `tried` was refused: the maximum the server named, else the next step down. */
export function smallerPageSize(error: DeviceMgmtError, tried: number): number | undefined {
  const texts = [...(error.fieldErrors?.per_page ?? []), error.serverMessage ?? ""];
  for (const text of texts) {
    const match = /(?:greater than|more than|at most|maximum(?: is| of)?|max(?:imum)?:?)\s*(\d+)/i.exec(text);
    const named = match ? Number(match[1]) : NaN;
    if (Number.isInteger(named) && named >= 1 && named < tried) return named;
  }
  return STEP_DOWN.find((size) => size < tried);
}

/** How many pages `all()` fetches at once after the first; the throttle still governs the request rate. */
const CONCURRENT_PAGES = 4;

export interface PageRequest {
  page: number;
  /** Undefined means "the server's default page size". */
  perPage?: number;
}

export type PageFetcher<T> = (request: PageRequest) => Promise<Page<T>>;

/** A lazily fetched list: iterate it with `for await`, or collect it with `all()`. */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: PageFetcher<T>,
    private readonly sizes: PageSizeMemory = localMemory(),
  ) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const first = await this.firstPage();
    yield first.page;
    for (let page = 2; page <= first.page.meta.last_page; page++) {
      const next = await this.fetchPage({ page, perPage: first.perPage });
      yield next;
      // A list that shrank while being read ends early instead of asking for pages that no longer exist.
      if (next.data.length === 0 || next.meta.last_page <= page) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item, in server order. Pages after the first are fetched a few at a time. */
  async all(): Promise<T[]> {
    const first = await this.firstPage();
    const lastPage = first.page.meta.last_page;
    const rest: T[][] = new Array(Math.max(0, lastPage - 1));
    let nextPage = 2;
    const worker = async () => {
      while (nextPage <= lastPage) {
        const page = nextPage++;
        rest[page - 2] = (await this.fetchPage({ page, perPage: first.perPage })).data;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_PAGES, lastPage - 1) }, worker));
    return first.page.data.concat(...rest);
  }

  private async firstPage(): Promise<{ page: Page<T>; perPage?: number }> {
    let size = this.sizes.get() ?? PREFERRED_PAGE_SIZE;
    for (;;) {
      let page: Page<T>;
      try {
        page = await this.fetchPage({ page: 1, perPage: size });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const next = refusesPerPage(error) ? smallerPageSize(error, size) : undefined;
        if (next !== undefined) {
          size = next;
          continue;
        }
        return { page: await this.fetchPage({ page: 1 }), perPage: undefined };
      }
      // A server that serves fewer than asked (a silent clamp) is asked for what it serves.
      const served = page.meta.per_page;
      if (Number.isInteger(served) && served >= 1 && served < size) size = served;
      this.sizes.remember(size);
      return { page, perPage: size };
    }
  }
}
