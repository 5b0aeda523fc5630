/**
 * The architecture as code: the table of parts and what each imports, the entry points (the only
 * files that read `process.env`), the checks that hold the code to them, and docs/architecture.md's
 * generated blocks written from them.
 */
export {
  ARCHITECTURE_PAGE_SCRIPT,
  architecturePage,
  entryPointList,
  floorList,
  partTable,
} from "./architecturePage.js";
export { ENTRY_POINTS, type EntryPoint, isEntryPoint } from "./entryPoints.js";
export {
  describedFolders,
  FUNCTION_ENVIRONMENTS,
  FUNCTIONS_README_SCRIPT,
  functionEnvironmentTable,
  functionFolders,
  functionsReadme,
  UnknownFunctionError,
} from "./functionsReadme.js";
export { blockMarkers, GeneratedBlockError, replaceGeneratedBlock } from "./generatedBlock.js";
export {
  type CrossPartImport,
  crossPartImports,
  partCycles,
  partFloors,
  partImportViolations,
} from "./partImports.js";
export { PARTS, type Part, type PartImport } from "./parts.js";
export { type ProcessEnvUse, processEnvUses, processEnvUsesIn } from "./processEnvUses.js";
export { sourceFiles, subFolders, topLevelFolders } from "./sourceFiles.js";
