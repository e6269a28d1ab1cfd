/**
 * GET /api/accounts/:name
 *
 * An account's profile; named after its handler.
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
import { profile as route } from "../../typescript/src/functional/accounts/index.js";
import { drawParam } from "../draw.js";
import { verify } from "../verify.js";

/** The route this file tests. */
export const ROUTE = "GET /api/accounts/:name";

export async function test_api_accounts_profile(connection: IConnection): Promise<number> {
  const answer = await route.propagate(
    connection,
    drawParam(route.METADATA.params[0].schema) as string,
  );
  return verify(route.METADATA, answer);
}
