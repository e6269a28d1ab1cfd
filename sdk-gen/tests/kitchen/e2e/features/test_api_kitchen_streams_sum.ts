/**
 * PUT /kitchen/streams
 *
 * Sums the bytes of a body read as a stream, never held whole.
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
import { sum as route } from "../../typescript/src/functional/kitchen/streams/index.js";
import { drawBytes } from "../draw.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "PUT /kitchen/streams";

export async function test_api_kitchen_streams_sum(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    drawBytes(),
  );
  return verify(route.METADATA, answer);
}
