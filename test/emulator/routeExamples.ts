/**
 * The routes' example requests (`examples` where each route is registered: `RouteExamples` in
 * emulator/context.ts), as the tests that run every route send them: contract.test.ts probes each route's
 * success and error, audit.test.ts checks each write's record.
 */
import { API_ROUTES } from "../../emulator";
import type { ExampleObject, ExampleRequest, RouteDefinition, RouteExamples } from "../../emulator/context";

/** The objects a test made for the examples, by the names the examples use. */
export type ExampleObjects = Record<ExampleObject, { id: string; name: string }>;

/** The routes that declare examples, with the OpenAPI key of each (`POST /groups/{groupId}/duplicate`). */
export const ROUTES_WITH_EXAMPLES: { key: string; route: RouteDefinition; examples: RouteExamples }[] =
  API_ROUTES.flatMap((route) =>
    route.examples
      ? [{ key: `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`, route, examples: route.examples }]
      : [],
  );

/** The example's path parameters as ids of the test's objects. */
export function paramsOf(request: ExampleRequest, objects: ExampleObjects): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.params ?? {}).map(([name, object]) => [name, objects[object].id]),
  );
}

/** The example's path, relative to /api/v3, with its parameters filled in. */
export function pathOf(route: RouteDefinition, request: ExampleRequest, objects: ExampleObjects): string {
  const params = paramsOf(request, objects);
  return route.path.replace(/:(\w+)/g, (_, name: string) => params[name]);
}

/** An audit description of the example, `{<object>}` replaced by that object's name. */
export function described(template: string, objects: ExampleObjects): string {
  return template.replace(/\{(\w+)\}/g, (_, object: string) => objects[object as ExampleObject].name);
}
