/**
 * `decisions up` with a policy that has a `deliver:` section: its usage names the DLQ key and the
 * command, and a target's env: secret that is unset or malformed in up's environment is refused,
 * naming the target and the variable, before any part starts.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createUpCommand, upUsage } from "../../../cli/commands/upCommand.js";
import { DeliverySecretError } from "../../../core/delivery/index.js";

describe("decisions up: deliveries", () => {
  it("names delivery_dlq_url and decisions deliveries in its usage", () => {
    assert.match(upUsage(), /delivery_dlq_url/);
    assert.match(upUsage(), /decisions deliveries list\|redrive --up-info up\.json/);
  });

  it("refuses an unset or malformed env: secret before starting any part", async () => {
    const dir = await mkdtemp(join(tmpdir(), "up-deliveries-"));
    try {
      const shipped = await readFile(join("policies", "ticket-routing.yaml"), "utf8");
      await writeFile(
        join(dir, "ticket-routing.yaml"),
        `${shipped}\ndeliver:\n  - name: helpdesk\n    url: https://helpdesk.example/hooks\n    secret: env:HELPDESK_SECRET\n    on: [decided]\n`,
      );
      for (const [env, why] of [
        [{}, /HELPDESK_SECRET, which is not set: export HELPDESK_SECRET=whsec_/],
        [{ HELPDESK_SECRET: "hunter2" }, /HELPDESK_SECRET is no Standard Webhooks secret/],
      ] as const) {
        const up = createUpCommand({ stdout: { write: () => true }, stderr: { write: () => true }, env });
        // A java that does not exist: had any part started first, the error would name Java instead.
        await assert.rejects(
          up.run(["--policies", dir, "--java", join(dir, "no-java")]),
          (error: unknown) =>
            error instanceof DeliverySecretError &&
            /ticket-routing\/helpdesk/.test(error.message) &&
            why.test(error.message),
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
