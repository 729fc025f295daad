/** Checking inputs by their schemas: one failure per bad property, and the schemas every kind shares. */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { apiTokenProblem, baseUrlProblem } from "../connection";
import { refusalIn } from "./inputIntegrity";
import { containsUnknown, jsonClean, type Props } from "./protocol";

/**
 * Validates inputs property by property so that `pulumi preview` shows one failure per bad property, each with a
 * readable reason. Values not known yet (preview) pass and are kept as they are; engine-internal keys (`__*`)
 * are left alone.
 */
export function checkProperties<Shape extends z.ZodRawShape>(
  resourceName: string,
  shape: Shape,
  news: Props,
): { inputs: Props; failures: pulumi.dynamic.CheckFailure[] } {
  const inputs: Props = {};
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (key.startsWith("__")) continue;
    if (!(key in shape))
      failures.push({ property: key, reason: `${key} is not a property of ${resourceName}.` });
  }
  for (const [key, schema] of Object.entries(shape) as [string, z.ZodType][]) {
    const value = news[key];
    const refused = refusalIn(value); // a value the program would have sent altered (inputIntegrity.ts)
    if (refused !== undefined) {
      failures.push({ property: key, reason: refused });
      continue;
    }
    if (containsUnknown(value)) {
      inputs[key] = value;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) inputs[key] = parsed.data;
    } else {
      failures.push({ property: key, reason: describeIssues(key, parsed.error) });
    }
  }
  return { inputs: jsonClean(inputs), failures };
}

function describeIssues(key: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length
        ? `${key}${issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")}`
        : key;
      return `${where}: ${issue.message}`;
    })
    .join("; ");
}

/** A required, trimmed, non-empty text of at most `max` characters, its messages naming the property. */
export const requiredText = (
  property: string,
  max: number,
  tooLong = `${property} must be at most ${max} characters`,
) =>
  z
    .string({ error: `${property} is required and must be a string` })
    .trim()
    .min(1, { error: `${property} must not be empty` })
    .max(max, { error: tooLong });

/**
 * Strings the API takes as ids. Lowercased, as the API compares and returns them: an id written in capitals
 * would otherwise never equal what a read brings back, and show a change on every run.
 */
export const uuid = (what: string) =>
  z.guid({ error: `${what} must be an id (a UUID such as 3f2b…-…)` }).transform((id) => id.toLowerCase());

export const connectionSchema = z
  .object({
    baseUrl: z
      .string({ error: `connection.baseUrl must be a string such as https://host/api/v3` })
      .optional(),
    apiToken: z.string({ error: "connection.apiToken must be a string (a v3 access token)" }).optional(),
    allowInsecureHttp: z.boolean({ error: "connection.allowInsecureHttp must be true or false" }).optional(),
  })
  .strict()
  .superRefine((connection, ctx) => {
    if (connection.apiToken !== undefined) {
      const problem = apiTokenProblem(connection.apiToken, "connection.apiToken");
      if (problem) ctx.addIssue({ code: "custom", path: ["apiToken"], message: problem });
    }
    if (connection.baseUrl !== undefined && !containsUnknown(connection.baseUrl)) {
      const problem = baseUrlProblem(
        connection.baseUrl,
        "connection.baseUrl",
        connection.allowInsecureHttp === true,
      );
      if (problem) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: problem });
    }
  })
  .optional();

export const adoptIdSchema = uuid("adoptId").optional();
