/**
 * Each table has one home that owns its keys, its reads and its writes: outside the outcomes
 * table's home (core/outcomes) and the jobs table's home (core/jobs), no source file builds a
 * DynamoDB item command (Get, Put, Update, Delete, Query, Scan, their batch and transaction forms,
 * PartiQL statements). test/ and lab/ are aside; core/common/queryPages.ts, the shared paging
 * helper the homes use, is the one listed exception. Creating a table (CreateTableCommand, the
 * local stack) is not an item command.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The tables' homes: every file under them may build item commands. */
const HOMES = ["core/outcomes/", "core/jobs/"];
/** Files outside the homes that may, and why. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  "core/common/queryPages.ts": "the shared paging helper: it runs the Query its caller (a home) built",
};
/** Folders not searched: tests, the lab's scripts and benchmarks, and what is not source. */
const ASIDE = new Set(["test", "lab", "node_modules", "cdk.out", "dist", "docs"]);

/** The item command constructors of `@aws-sdk/client-dynamodb` and `@aws-sdk/lib-dynamodb`. */
const ITEM_COMMANDS = [
  "GetItemCommand",
  "PutItemCommand",
  "UpdateItemCommand",
  "DeleteItemCommand",
  "QueryCommand",
  "ScanCommand",
  "BatchGetItemCommand",
  "BatchWriteItemCommand",
  "TransactGetItemsCommand",
  "TransactWriteItemsCommand",
  "ExecuteStatementCommand",
  "BatchExecuteStatementCommand",
  "ExecuteTransactionCommand",
  "GetCommand",
  "PutCommand",
  "UpdateCommand",
  "DeleteCommand",
  "BatchGetCommand",
  "BatchWriteCommand",
  "TransactGetCommand",
  "TransactWriteCommand",
];

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["'](@aws-sdk\/(?:client|lib)-dynamodb)["']/g;
const CONSTRUCTED = new RegExp(`\\bnew\\s+(?:[A-Za-z_$][\\w$]*\\.)?(${ITEM_COMMANDS.join("|")})\\s*\\(`, "g");

/**
 * The DynamoDB item commands a source text builds or imports for building: value imports of
 * them from the DynamoDB packages (type-only imports aside) and `new <Command>(` expressions.
 */
function itemCommandsIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    const whole = match[0];
    if (/^import\s+type\b/.test(whole)) continue;
    for (const specifier of (match[1] ?? "").split(",")) {
      const name = specifier.trim();
      if (name.startsWith("type ")) continue;
      const imported = name.split(/\s+as\s+/)[0]?.trim() ?? "";
      if (ITEM_COMMANDS.includes(imported)) found.add(imported);
    }
  }
  for (const match of text.matchAll(CONSTRUCTED)) found.add(match[1] ?? "");
  return [...found].sort();
}

function sources(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name.startsWith(".")) continue;
    const path = dir === "" ? name : `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) {
      if (!(dir === "" && ASIDE.has(name)) && name !== "node_modules") sources(path, into);
    } else if (/\.(?:ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith(".d.ts")) into.push(path);
  }
  return into;
}

describe("one home per table", () => {
  it("finds item commands however they are imported or built, and not type imports or other SDKs' commands", () => {
    assert.deepEqual(
      itemCommandsIn('import { QueryCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";'),
      ["QueryCommand"],
    );
    assert.deepEqual(
      itemCommandsIn(
        'import {\n  DynamoDBDocumentClient,\n  ScanCommand as Scan,\n} from "@aws-sdk/lib-dynamodb";\nawait c.send(new Scan({}));',
      ),
      ["ScanCommand"],
    );
    assert.deepEqual(itemCommandsIn("const x = new lib.PutItemCommand({ TableName });"), ["PutItemCommand"]);
    assert.deepEqual(itemCommandsIn('import type { GetCommandInput } from "@aws-sdk/lib-dynamodb";'), []);
    assert.deepEqual(itemCommandsIn('import { type GetCommandOutput } from "@aws-sdk/lib-dynamodb";'), []);
    assert.deepEqual(
      itemCommandsIn(
        'import { CreateTableCommand } from "@aws-sdk/client-dynamodb";\nimport { DeleteMessageCommand, GetQueueUrlCommand } from "@aws-sdk/client-sqs";\nnew DeleteMessageCommand({});',
      ),
      [],
    );
  });

  it("builds DynamoDB item commands only in core/outcomes and core/jobs (and the listed helper)", () => {
    const files = sources("");
    assert.ok(files.length > 300, `the source tree was read (${files.length} files)`);
    assert.ok(
      files.some((file) => file.startsWith("core/outcomes/")),
      "the homes are searched too",
    );
    const outside = files
      .filter((file) => !HOMES.some((home) => file.startsWith(home)) && EXCEPTIONS[file] === undefined)
      .map((file) => ({ file, commands: itemCommandsIn(readFileSync(join(ROOT, file), "utf8")) }))
      .filter((entry) => entry.commands.length > 0)
      .map((entry) => `${entry.file}: ${entry.commands.join(", ")}`);
    assert.deepEqual(
      outside,
      [],
      "read and write the outcomes and jobs tables through their homes (core/outcomes, core/jobs)",
    );
    for (const file of Object.keys(EXCEPTIONS))
      assert.ok(
        itemCommandsIn(readFileSync(join(ROOT, file), "utf8")).length > 0,
        `${file} is listed as an exception but builds no item command: take it off the list`,
      );
    // Where commands are built at all: the homes (a check that the scan sees them).
    const inHomes = files.filter(
      (file) =>
        HOMES.some((home) => file.startsWith(home)) &&
        itemCommandsIn(readFileSync(join(ROOT, file), "utf8")).length > 0,
    );
    assert.ok(inHomes.length >= 3, `the homes build them (${inHomes.join(", ")})`);
  });
});
