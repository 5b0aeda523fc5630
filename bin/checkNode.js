#!/usr/bin/env node
// `npm test` runs this first, so that an old Node.js is explained in a few lines instead of failing
// later inside a dependency (node:sqlite, a syntax error in a package, an engine warning).
import { exitUnlessNodeSupported } from "./nodeRequirement.js";

exitUnlessNodeSupported(new URL("../", import.meta.url));
