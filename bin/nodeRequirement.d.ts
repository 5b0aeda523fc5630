// Types of bin/nodeRequirement.js (plain JavaScript, so that it runs before anything is compiled);
// its TSDoc is there.

/** The Node.js being checked. */
export interface NodeRuntime {
  version: string;
  platform: string;
  arch: string;
  execPath: string;
  packageInstalled: boolean;
}

/** See bin/nodeRequirement.js. */
export declare const MINIMUM_NODE_MAJOR: number;
/** See bin/nodeRequirement.js. */
export declare const NODE_PACKAGES: Readonly<Record<string, string>>;
/** See bin/nodeRequirement.js. */
export declare function nodeRequirementProblem(runtime: NodeRuntime): string | undefined;
/** See bin/nodeRequirement.js. */
export declare function exitUnlessNodeSupported(packageRoot: URL): void;
/** See bin/nodeRequirement.js. */
export declare function bundledNodePath(packageRoot: URL): string | undefined;
/** See bin/nodeRequirement.js. */
export declare function runOnSupportedNode(packageRoot: URL, script: string): boolean;
/** See bin/nodeRequirement.js. */
export declare const FORWARDED_SIGNALS: readonly NodeJS.Signals[];
/** See bin/nodeRequirement.js. */
export declare const RERUN_VARIABLE: string;
/** See bin/nodeRequirement.js. */
export declare function stopWithWaitingParent(): void;
