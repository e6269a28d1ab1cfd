/**
 * GET /kitchen/headers
 *
 * Answers the headers it read.
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
import { random } from "../../typescript/src/runtime.js";
import { headers as route } from "../../typescript/src/functional/kitchen/index.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /kitchen/headers";

export async function test_api_kitchen_headers(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    random(route.METADATA.headers, 0) as route.Headers,
  );
  return verify(route.METADATA, answer);
}
