import assert from "node:assert/strict";
import { createServer } from "node:http";

/** A URL on 127.0.0.1 where nothing listens (port 1 would not do: fetch refuses it as a bad port). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${address.port}`;
}
