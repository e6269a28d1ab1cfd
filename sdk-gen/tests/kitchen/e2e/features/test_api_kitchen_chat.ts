/**
 * GET /kitchen/chat/:room
 *
 * Chats in a room: every line comes back as the room hears it (with the
 * tenant of the handshake's headers), until the client closes or says
 * `bye`. A line over 1 KiB closes the socket with 1009, a refused one with
 * 1007.
 *
 * Not tested: a WebSocket route: what to send and what comes back depend
 * on the conversation, which random input cannot hold; write this test by
 * hand (open the socket with the route's function, `send` a message, read
 * one with `for await`, `close()`). Write the test, then remove `SKIP`.
 *
 * Written once by `sdk-gen e2e`; yours to edit.
 * @module
 */
import type { IConnection } from "../../typescript/src/index.js";

/** The route this file tests. */
export const ROUTE = "GET /kitchen/chat/:room";

/** Why it has no generated test: shown by the test runner. */
export const SKIP = "a WebSocket route: what to send and what comes back depend on the conversation, which random input cannot hold; write this test by hand (open the socket with the route's function, `send` a message, read one with `for await`, `close()`)";

export async function test_api_kitchen_chat(_connection: IConnection): Promise<number> {
  throw new Error(SKIP);
}
