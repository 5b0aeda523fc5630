/** Starts a {@link DecisionServer} on a fake engine for a test file, and captures its logs. */
import {
  DEFAULT_INTERACTIVE_RESERVE,
  readServerConfig,
  type ServerConfig,
} from "../../../adapter/server/config.js";
import { DecisionServer, type DecisionServerOptions } from "../../../adapter/server/DecisionServer.js";
import type { LogFields, Logger, LogLevel } from "../../../adapter/server/logger.js";
import { FakeEngine, type FakeEngineOptions } from "../../support/FakeEngine.js";

export interface LogLine extends LogFields {
  level: LogLevel;
  event: string;
}

/** A logger that keeps every line, for assertions. */
export class CapturingLogger implements Logger {
  readonly lines: LogLine[] = [];
  log(level: LogLevel, event: string, fields: LogFields = {}): void {
    this.lines.push({ ...fields, level, event });
  }
  events(event: string): LogLine[] {
    return this.lines.filter((line) => line.event === event);
  }
}

export interface Harness {
  server: DecisionServer;
  engine: FakeEngine;
  logger: CapturingLogger;
  port: number;
  close(): Promise<void>;
}

/**
 * The default configuration with the test's overrides, bound to a free loopback port. The
 * interactive reserve follows an overridden queue depth as its default does (2, or the depth if
 * smaller), unless the test sets it too.
 */
export function testSettings(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const defaults = readServerConfig({}, {}, { availableParallelism: 2 });
  const queueDepth = overrides.queueDepth ?? defaults.queueDepth;
  return {
    ...defaults,
    host: "127.0.0.1",
    port: 0,
    interactiveReserve: Math.min(DEFAULT_INTERACTIVE_RESERVE, queueDepth),
    ...overrides,
  };
}

/** Starts a ready server on a fake engine. */
export async function startFakeServer(
  overrides: Partial<ServerConfig> = {},
  engineOptions: FakeEngineOptions = {},
  serverOptions: Pick<DecisionServerOptions, "bodyPace" | "connectionLimits"> = {},
): Promise<Harness> {
  const engine = new FakeEngine({ ...engineOptions, delayMs: 0 });
  const logger = new CapturingLogger();
  const server = new DecisionServer({
    settings: testSettings(overrides),
    loadEngine: async () => engine,
    logger,
    ...serverOptions,
  });
  const { port } = await server.listen();
  await server.load();
  // Slow scoring only once ready, so the probe at load stays quick.
  engine.delayMs = engineOptions.delayMs ?? 0;
  return { server, engine, logger, port, close: () => server.close() };
}
