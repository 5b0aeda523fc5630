// The server as its own process, configured from the environment only (as the image runs it), for
// tests that read what the process writes: `node --import tsx test/adapter/server/serveProcess.fixture.ts`.
import { readServerConfig } from "../../../adapter/server/config.js";
import { serve } from "../../../adapter/server/serve.js";

process.exitCode = await serve(readServerConfig(process.env));
