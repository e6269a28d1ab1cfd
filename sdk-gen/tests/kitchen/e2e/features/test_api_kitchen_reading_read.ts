/**
 * GET /kitchen/reading
 *
 * Something to read; readers only.
 *
 * Calls the route with random valid input and checks the answer: a success
 * against its type, a documented error against the error body. Random
 * input often meets a documented error (an id nobody made is a 404): make
 * it real (create what the route reads first) to test more.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "../../typescript/src/index.js";
import { read as route } from "../../typescript/src/functional/kitchen/reading/index.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /kitchen/reading";

export async function test_api_kitchen_reading_read(connection: IConnection): Promise<number> {
  const answer = await route.propagate(connection);
  return verify(route.METADATA, answer);
}
