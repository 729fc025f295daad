/**
 * How the operations' reads and writes are executed: the client supplies it (writes are preceded by the v3-token
 * check). Its own module because the operations (operations.ts) and the groups of them it includes
 * (contentOperations.ts, experienceOperations.ts) all take it: declared in operations.ts, it made them an import
 * cycle.
 */
import type { z } from "zod";
import type { Invalidates } from "./invalidates";
import type { PageSizeMemory } from "./pagination";
import type { HttpMethod, QueryValue } from "./transport";

export type Query = Record<string, QueryValue>;

export interface Executor {
  get<T>(path: string, schema: z.ZodType<T>, query?: Query): Promise<T>;
  write<T>(
    method: HttpMethod,
    path: string,
    invalidates: Invalidates,
    body?: unknown,
    schema?: z.ZodType<T>,
    query?: Query,
    /** A POST that sets a state, so it is retried like a PUT (see `RequestSpec.repeatable`). */
    options?: { repeatable?: boolean },
  ): Promise<T>;
  /** Where the server's accepted page size is remembered (per base URL, process-wide). */
  pageSizes?: PageSizeMemory;
}
