/**
 * `decisions submit --url`: a URL the front door cannot be (not http or https, or not a URL) is a
 * usage error told once, before the file is read or anything is sent.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSubmitCommand } from "../../../cli/commands/submitCommand.js";
import { UsageError } from "../../../cli/errors.js";

const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;

describe("decisions submit --url", () => {
  it("refuses a --url that is not an http(s) URL as a usage error, naming it", async () => {
    for (const url of [
      "ftp://127.0.0.1/v1/webhooks/work-items",
      "127.0.0.1:8080/v1/webhooks/work-items",
      "",
    ]) {
      const written: string[] = [];
      const submit = createSubmitCommand({
        stdout: { write: (text: string) => written.push(text) > 0 },
        stderr: { write: (text: string) => written.push(text) > 0 },
      });
      await assert.rejects(
        submit.run(["/nonexistent/items.jsonl", "--url", url, "--webhook-secret", SECRET]),
        (error: unknown) =>
          error instanceof UsageError && /--url/.test(error.message) && /http/.test(error.message),
        url,
      );
      assert.deepEqual(written, [], "nothing read or sent");
    }
  });
});
