/**
 * Only entry points (lab/scripts/architecture/entryPoints.ts) use `process.env`; every unit below
 * them takes what it needs as a parameter.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  isEntryPoint,
  processEnvUses,
  processEnvUsesIn,
  sourceFiles,
  topLevelFolders,
} from "../../lab/scripts/architecture/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Files below an entry point that still read `process.env`, each with why. Each must still read it:
 * a file that stops leaves this list.
 */
const NOT_YET_MOVED: ReadonlyMap<string, string> = new Map([
  // Issue 34: both add variables to the caller's environment, which defaults to this process's;
  // the local stack and the integration tests start them without one. Passing it from the commands
  // through startLocalStack waits for local/'s regrouping.
  [
    "local/services/startAdapterProcess.ts",
    "adds the adapter's malloc settings to this process's environment",
  ],
  ["local/services/startDynamoDbLocal.ts", "adds DDB_LOCAL_TELEMETRY=0 to this process's environment"],
]);

describe("process.env", () => {
  it("is used only by entry points", () => {
    const folders = topLevelFolders(ROOT).filter((folder) => folder !== "test");

    const uses = processEnvUses(ROOT, sourceFiles(ROOT, folders));

    const below = uses.filter((use) => !isEntryPoint(use.file) && !NOT_YET_MOVED.has(use.file));
    assert.ok(
      uses.some((use) => use.file === "functions/decide/handler.ts"),
      "the scan finds the decide handler's read",
    );
    assert.deepEqual(
      below.map((use) => `${use.file}:${use.line}: ${use.text}`),
      [],
      "take the environment as a parameter from the entry point",
    );
    for (const file of NOT_YET_MOVED.keys()) {
      assert.ok(
        uses.some((use) => use.file === file),
        `${file} no longer uses process.env: take it out of NOT_YET_MOVED`,
      );
    }
  });

  it("is found as a property, an index, a destructuring and an import, not in comments, strings or types", () => {
    const text = [
      "// process.env.NOT_THIS",
      'const quoted = "process.env.NOT_THIS_EITHER";',
      "type Env = NodeJS.ProcessEnv;",
      "const region = process.env.AWS_REGION;",
      'const copy = { ...process["env"] };',
      "const { env } = process;",
      'import { env as environment } from "node:process";',
      "globalThis.process.env.X ??= '1';",
    ].join("\n");

    const uses = processEnvUsesIn("x.ts", text);

    assert.deepEqual(
      uses.map((use) => use.line),
      [4, 5, 6, 7, 8],
    );
  });

  it("knows an entry point by its path", () => {
    const entries = [
      "functions/decide/handler.ts",
      "bin/decisions.js",
      "cli/commands/serveCommand.ts",
      "local/services/adapterProcessMain.ts",
      "lab/scripts/writeConfigurationPage.ts",
    ];
    const units = [
      "functions/decide/createDecideDeps.ts",
      "cli/commands/localStackArgs.ts",
      "local/services/startAdapterProcess.ts",
      "lab/scripts/configurationPage.ts",
    ];

    assert.deepEqual(
      entries.filter((file) => !isEntryPoint(file)),
      [],
    );
    assert.deepEqual(
      units.filter((file) => isEntryPoint(file)),
      [],
    );
  });
});
