/**
 * `policyCatalogueMain.ts <policy folder>`: loads every policy of the folder as the functions do and
 * writes the catalogue (`contract/policy/PolicyCatalogueSchema.ts`) as JSON on stdout; on a policy
 * that does not load, writes every problem on stderr and exits 1. The CDK app runs it at synth
 * (`infra/config/readPolicyCatalogue.ts`), so a bad policy stops the synth while the CEL compiler
 * stays out of the synth's own process.
 */
import { policyCatalogueOf } from "./policyCatalogueOf.js";

const folder = process.argv[2];
if (folder === undefined) {
  process.stderr.write("usage: policyCatalogueMain.ts <policy folder>\n");
  process.exitCode = 2;
} else {
  try {
    process.stdout.write(`${JSON.stringify(policyCatalogueOf(folder))}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
