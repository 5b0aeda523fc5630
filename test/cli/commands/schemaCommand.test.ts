import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSchemaCommand } from "../../../cli/commands/schemaCommand.js";
import { UsageError } from "../../../cli/errors.js";
import { jsonSchemaOf, WIRE_SCHEMA_NAMES } from "../../../contract/wire/index.js";

function capture(): { command: ReturnType<typeof createSchemaCommand>; stdout: () => string } {
  let out = "";
  const command = createSchemaCommand({ stdout: { write: (text: string) => (out += text) } });
  return { command, stdout: () => out };
}

describe("decisions schema", () => {
  it("prints each wire format's JSON Schema as JSON", async () => {
    for (const name of WIRE_SCHEMA_NAMES) {
      const { command, stdout } = capture();

      const code = await command.run([name]);

      assert.equal(code, 0, name);
      assert.deepEqual(JSON.parse(stdout()), jsonSchemaOf(name), name);
    }
  });

  it("prints the System One request schema with its required fields", async () => {
    const { command, stdout } = capture();

    await command.run(["systemone"]);

    const schema = JSON.parse(stdout()) as { $schema: string; required: string[] };
    assert.match(schema.$schema, /2020-12/);
    assert.deepEqual([...schema.required].sort(), ["questions", "state"]);
  });

  it("lists the names in --help", async () => {
    const { command, stdout } = capture();

    assert.equal(await command.run(["--help"]), 0);

    for (const name of WIRE_SCHEMA_NAMES) assert.match(stdout(), new RegExp(`^ {2}${name}$`, "m"));
  });

  it("refuses an unknown name, no name, two names and an unknown flag as usage errors", async () => {
    const { command, stdout } = capture();

    await assert.rejects(command.run(["soap"]), /no schema named "soap"/);
    await assert.rejects(command.run([]), UsageError);
    await assert.rejects(command.run(["semif", "chat"]), UsageError);
    await assert.rejects(command.run(["--pretty", "semif"]), UsageError);
    assert.equal(stdout(), "");
  });
});
