/** API errors in the service's shape: `{ message: <status phrase> }`, plus Laravel-style `errors` for 422. */
import { STATUS_CODES } from "node:http";
import type { z } from "zod";

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(statusPhrase(status));
  }

  get body(): { message: string; errors?: FieldErrors } {
    return this.fieldErrors ? { message: this.message, errors: this.fieldErrors } : { message: this.message };
  }
}

export function statusPhrase(status: number): string {
  return STATUS_CODES[status] ?? "Error";
}

export const badRequest = (): ApiError => new ApiError(400);
export const unauthorized = (): ApiError => new ApiError(401);
export const forbidden = (): ApiError => new ApiError(403);
export const notFound = (): ApiError => new ApiError(404);

export function invalid(field: string, message: string): ApiError {
  return new ApiError(422, { [field]: [message] });
}

/** Gathers every field problem of a request, so one 422 reports them all (as Laravel's validator does). */
export class FieldErrorCollector {
  private readonly errors: FieldErrors = {};
  private count = 0;

  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
    this.count++;
  }

  throwIfAny(): void {
    if (this.count > 0) throw new ApiError(422, this.errors);
  }
}

/** "firstName" -> "first name" as Laravel displays attribute names; nested paths stay as sent ("groupRoles.0.roleId"). */
function displayName(path: readonly PropertyKey[]): string {
  if (path.length !== 1) return path.map(String).join(".");
  return String(path[0])
    .replace(/\[\]$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
}

function laravelMessage(issue: z.core.$ZodIssue, attribute: string): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined || input === null || (input === "" && issue.expected === "string")) {
        return `The ${attribute} field is required.`;
      }
      switch (issue.expected) {
        case "string":
          return `The ${attribute} field must be a string.`;
        case "array":
          return `The ${attribute} field must be an array.`;
        case "boolean":
          return `The ${attribute} field must be true or false.`;
        case "int":
        case "number":
          return `The ${attribute} field must be an integer.`;
        default:
          return `The ${attribute} field must be an object.`;
      }
    case "too_small":
      if (issue.origin === "string")
        return input === ""
          ? `The ${attribute} field is required.`
          : `The ${attribute} field must be at least ${issue.minimum} characters.`;
      if (issue.origin === "array")
        return `The ${attribute} field must have at least ${issue.minimum} items.`;
      return `The ${attribute} field must be at least ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string")
        return `The ${attribute} field must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === "array")
        return `The ${attribute} field must not have more than ${issue.maximum} items.`;
      return `The ${attribute} field must not be greater than ${issue.maximum}.`;
    case "invalid_format":
      if (issue.format === "email") return `The ${attribute} field must be a valid email address.`;
      if (issue.format === "guid" || issue.format === "uuid")
        return `The ${attribute} field must be a valid UUID.`;
      if (issue.format === "datetime") return `The ${attribute} field must be a valid date.`;
      return `The ${attribute} field format is invalid.`;
    case "invalid_value":
      if (input === undefined || input === null) return `The ${attribute} field is required.`;
      return `The selected ${attribute} is invalid.`;
    default:
      return issue.message || `The ${attribute} field is invalid.`;
  }
}

/** Validate with zod; failures become a 422 whose `errors` map dotted field paths to Laravel-style messages. */
export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".");
    (errors[field] ??= []).push(laravelMessage(issue, displayName(issue.path)));
  }
  throw new ApiError(422, errors);
}
