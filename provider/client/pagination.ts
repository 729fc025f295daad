/**
 * Pagination over the v3 list endpoints (Laravel length-aware pages). Pages are requested by number with
 * `per_page` 100 and iteration stops at `meta.last_page`; `links` are never followed, so a server that
 * rewrites hosts or drops query parameters cannot send the client elsewhere. A server that refuses
 * per_page=100 with 422 is asked again without it and its own page size (`meta.per_page`) is used.
 */
import { ValidationError } from "./errors";
import type { Page } from "./schemas";

export const PREFERRED_PAGE_SIZE = 100;

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
  constructor(private readonly fetchPage: PageFetcher<T>) {}

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
    try {
      return {
        page: await this.fetchPage({ page: 1, perPage: PREFERRED_PAGE_SIZE }),
        perPage: PREFERRED_PAGE_SIZE,
      };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { page: await this.fetchPage({ page: 1 }), perPage: undefined };
    }
  }
}
