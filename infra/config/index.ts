/** Configuration of the CDK app: the context knobs, their validation, and values derived from them. */

export type { ImageReferenceFailure, InfraConfigProblem } from "./errors.js";
export {
  ConsoleSiteBuildError,
  ImageReferenceError,
  InfraConfigError,
  PolicyCatalogueError,
} from "./errors.js";
export type { ContextValue, InfraKnob, InfraSettings } from "./InfraSettings.js";
export { INFRA_KNOBS } from "./infraKnobs.js";
export type { PinnedImage } from "./parsePinnedImage.js";
export { parsePinnedImage } from "./parsePinnedImage.js";
export type { ConsoleSite } from "./readConsoleSite.js";
export { readConsoleSite } from "./readConsoleSite.js";
export { readInfraSettings } from "./readInfraSettings.js";
export type { PolicyCatalogueEntry } from "./readPolicyCatalogue.js";
export { readPolicyCatalogue } from "./readPolicyCatalogue.js";
