/**
 * The review API path a 202 names for an item: it survives URL parsing for every id, including
 * `.` and `..`, which URL parsers remove as dot segments (the review API takes those as base64url).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { outcomeLocationOf } from "../../../core/intake/outcomeLocationOf.js";

/** The item id the review API reads from a path, as its router does (segments, then id_encoding). */
function idReadBack(path: string): string | undefined {
  const url = new URL(path, "http://127.0.0.1");
  const segments = url.pathname.split("/").filter((part) => part.length > 0);
  if (segments.length !== 4 || segments[0] !== "api" || segments[1] !== "items") return undefined;
  const segment = decodeURIComponent(segments[3] ?? "");
  return url.searchParams.get("id_encoding") === "base64url"
    ? Buffer.from(segment, "base64url").toString("utf8")
    : segment;
}

describe("outcomeLocationOf", () => {
  it("percent-encodes an ordinary id", () => {
    assert.equal(
      outcomeLocationOf("ticket-routing", "T 1/2").review_api_path,
      "/api/items/ticket-routing/T%201%2F2",
    );
  });

  it("names a path that still reaches the item after URL parsing, for . and .. too", () => {
    for (const id of ["T-1", ".", "..", "a/b", "%2e%2e", "...", "é"])
      assert.equal(idReadBack(outcomeLocationOf("ticket-routing", id).review_api_path), id, id);
  });
});
