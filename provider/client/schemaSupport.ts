/** What every schema file of the client shares: the exact-type check against the public interfaces, ids, times. */
import { z } from "zod";

/**
 * True only when A and B are the same type (identity, not mere mutual assignability, which would let an optional
 * field present on one side only slip through).
 */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * Types a schema by its public interface. The second argument must be `true`, which compiles only when what
 * the schema parses to is exactly the interface: a field added, dropped, made optional or retyped on one side
 * only is a compile error here.
 */
export function parsesTo<T>() {
  return <S extends z.ZodType>(schema: S, agrees: Same<z.output<S>, T>): z.ZodType<T> => {
    void agrees;
    return schema as unknown as z.ZodType<T>;
  };
}

export const id = z.guid();
export const timestamp = z.iso.datetime({ offset: true });
export const timestamps = { createdAt: timestamp, updatedAt: timestamp };
