/**
 * Random valid inputs, drawn from the routes' schemas by the SDK's runtime
 * (`random`, what `simulate` answers with).
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import { random, type RuntimeSchema } from "{{ sdk }}/runtime.js";

/**
 * A path parameter: a random value of its schema that can travel in a
 * path. An empty one, or one holding a `.` or `..` segment (which URLs
 * resolve away), would reach another route: those are drawn again.
 */
export function drawParam(schema: RuntimeSchema): unknown {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = random(schema, 0);
    const text = String(value);
    if (text !== "" && !text.split("/").some((segment) => segment === "." || segment === "..")) return value;
  }
  throw new Error(`cannot draw a path parameter of ${schema.e ?? schema.k} that is not empty`);
}

/** A body of bytes: up to 64 random ones. */
export function drawBytes(): Uint8Array {
  const bytes = new Uint8Array(Math.floor(Math.random() * 65));
  for (let index = 0; index < bytes.length; index++) bytes[index] = Math.floor(Math.random() * 256);
  return bytes;
}
